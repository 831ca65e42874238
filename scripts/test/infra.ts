/**
 * `npm run test:infra`: the test broker and the test database that integration specs run against, left
 * running for `npx nx run <project>:integration`: a broker on TEST_KAFKA_PORT (default 19092) and the
 * database of TEST_DATABASE_URL (default partner_test), recreated and migrated. `npm run test:infra --
 * stop` stops the broker. `npm test` starts (and stops) its own on the same port, emptied first.
 */
import { kafka, migrate, recreateDatabase } from '../stack/stack';
import { TEST_DATABASE_URL, TEST_KAFKA_PORT } from './test-infra';

async function main(): Promise<void> {
  if (process.argv.includes('stop')) {
    kafka('stop', TEST_KAFKA_PORT);
    return;
  }
  kafka('start', TEST_KAFKA_PORT);
  await recreateDatabase(TEST_DATABASE_URL);
  migrate(TEST_DATABASE_URL);
  console.log(`test infrastructure ready: KAFKA_BROKERS=127.0.0.1:${TEST_KAFKA_PORT} DATABASE_URL=${TEST_DATABASE_URL}`);
}

main().catch((error: Error) => {
  console.error(`test:infra failed: ${error.message}`);
  process.exit(1);
});
