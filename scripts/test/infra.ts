/**
 * `npm run test:infra [-- stop]`: the test broker (TEST_KAFKA_PORT), database (TEST_DATABASE_URL, recreated and
 * migrated) and fresh local chains that integration specs run against, left running; prints their environment.
 */
import { join } from 'node:path';
import { kafka, migrate, recreateDatabase } from '../stack/stack';
import { repoRoot, TEST_DATABASE_URL, TEST_KAFKA_PORT } from '../lib/services';
import { chainAppEnv, TEST_BLOCK_TIME_MS, TEST_CHAIN_TIMINGS } from '../chain/chain-env';
import { ensureHotWalletKey, ensureLocalChains, stopLocalChains, TEST_CHAIN_PORTS } from '../chain/local-chains';

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
