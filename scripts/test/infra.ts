/**
 * `npm run test:infra [-- stop]`: the test broker (TEST_KAFKA_PORT, emptied), database (TEST_DATABASE_URL,
 * recreated and migrated) and fresh local chains that integration specs run against, left running; prints
 * their environment. `npm test` starts the same for its run.
 */
import { join } from 'node:path';
import { DbRoles, freshKafka, kafka, migrate, recreateDatabase } from '../stack/stack';
import { repoRoot, TEST_DATABASE_URL, TEST_KAFKA_PORT } from '../lib/services';
import { runMain } from '../lib/main';
import { chainAppEnv, TEST_BLOCK_TIME_MS, TEST_CHAIN_TIMINGS } from '../chain/chain-env';
import { ensureHotWalletKey, ensureLocalChains, stopLocalChains, TEST_CHAIN_PORTS } from '../chain/local-chains';

/** Starts it all afresh (with `roles`, each app's database role too); answers the chains' settings for the apps and specs. */
export async function startTestInfra(roles?: DbRoles): Promise<Record<string, string>> {
  freshKafka(TEST_KAFKA_PORT);
  await recreateDatabase(TEST_DATABASE_URL);
  migrate(TEST_DATABASE_URL, roles);
  const hotWallet = ensureHotWalletKey(join(repoRoot(), '.cache', 'test', 'hot-wallet.key'));
  const chains = await ensureLocalChains({
    ports: TEST_CHAIN_PORTS,
    // One wallet, not npm start's pool of two: the integration specs assume a single signer per network.
    hotWallets: [hotWallet.address],
    blockTimeMs: TEST_BLOCK_TIME_MS,
    fresh: true,
  });
  return chainAppEnv(chains, [hotWallet.keyFile], TEST_CHAIN_TIMINGS);
}

export async function stopTestInfra(): Promise<void> {
  kafka('stop', TEST_KAFKA_PORT);
  await stopLocalChains(TEST_CHAIN_PORTS);
}

if (require.main === module)
  runMain('test:infra failed', async () => {
    if (process.argv.includes('stop')) return stopTestInfra();
    const env = Object.entries(await startTestInfra()).map(([k, v]) => `${k}=${v}`);
    console.log(`test infrastructure ready: KAFKA_BROKERS=127.0.0.1:${TEST_KAFKA_PORT} DATABASE_URL=${TEST_DATABASE_URL} ${env.join(' ')}`);
  });
