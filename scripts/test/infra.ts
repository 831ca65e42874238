/**
 * `npm run test:infra`: the test broker and the test database that integration specs run against, left
 * running for `npx nx run <project>:integration`: a broker on TEST_KAFKA_PORT (default 19092) and the
 * database of TEST_DATABASE_URL (default partner_test), recreated and migrated. `npm run test:infra --
 * stop` stops the broker and the chains. The local chains (a node per network, fresh) are printed as the
 * environment the withdrawals' payout specs need. `npm test` starts (and stops) its own on the same port, emptied first.
 */
import { join } from 'node:path';
import { kafka, migrate, recreateDatabase } from '../stack/stack';
import { repoRoot } from '../lib/services';
import { chainAppEnv, TEST_BLOCK_TIME_MS, TEST_CHAIN_TIMINGS } from '../chain/chain-env';
import { ensureHotWalletKey, ensureLocalChains, stopLocalChains, TEST_CHAIN_PORTS } from '../chain/local-chains';
import { TEST_DATABASE_URL, TEST_KAFKA_PORT } from './test-infra';

async function main(): Promise<void> {
  if (process.argv.includes('stop')) {
    kafka('stop', TEST_KAFKA_PORT);
    await stopLocalChains(TEST_CHAIN_PORTS);
    return;
  }
  kafka('start', TEST_KAFKA_PORT);
  await recreateDatabase(TEST_DATABASE_URL);
  migrate(TEST_DATABASE_URL);
  const hotWallet = ensureHotWalletKey(join(repoRoot(), '.cache', 'test', 'hot-wallet.key'));
  const chains = await ensureLocalChains({
    ports: TEST_CHAIN_PORTS,
    hotWallet: hotWallet.address,
    blockTimeMs: TEST_BLOCK_TIME_MS,
    fresh: true,
  });
  const env = Object.entries(chainAppEnv(chains, hotWallet.keyFile, TEST_CHAIN_TIMINGS)).map(([k, v]) => `${k}=${v}`);
  console.log(`test infrastructure ready: KAFKA_BROKERS=127.0.0.1:${TEST_KAFKA_PORT} DATABASE_URL=${TEST_DATABASE_URL} ${env.join(' ')}`);
}

main().catch((error: Error) => {
  console.error(`test:infra failed: ${error.message}`);
  process.exit(1);
});
