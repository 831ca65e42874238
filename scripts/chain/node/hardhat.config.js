// The Hardhat 3 node behind scripts/chain/local-chains.ts: one in-memory EVM chain per process. Hardhat 3
// is ES modules only, the repository CommonJS: this folder's package.json makes this file a module, and
// bare imports (hardhat itself) resolve from the repository's node_modules by walking up the folders.
//
// Read from the environment (local-chains.ts sets them):
//   CHAIN_ID       the chain id (31337 when unset)
//   BLOCK_TIME_MS  > 0: a block every N ms, automine off (a transaction waits for the next block, as on a
//                  real chain); 0 or unset: automine (a block per transaction, at once)
//   CHAIN_DATA_DIR where Hardhat may write (the node creates <artifacts>/build-info): under .cache/
//   GENESIS_SALT   wei added to each development account's 10,000 ETH. The genesis block holds no chain id
//                  and its timestamp has whole seconds: two nodes started in the same second (ETH and
//                  MATIC, or a node restarted at once) would share a genesis hash. A random salt makes
//                  every start a different genesis, as a restart of an in-memory chain is a new chain.
const chainId = Number(process.env.CHAIN_ID ?? 31337);
const blockTimeMs = Number(process.env.BLOCK_TIME_MS ?? 0);
if (!Number.isSafeInteger(chainId) || chainId <= 0) throw new Error(`CHAIN_ID must be a positive integer, got ${process.env.CHAIN_ID}`);
if (!Number.isSafeInteger(blockTimeMs) || blockTimeMs < 0) throw new Error(`BLOCK_TIME_MS must be >= 0, got ${process.env.BLOCK_TIME_MS}`);
const salt = BigInt(process.env.GENESIS_SALT ?? 0);
const dataDir = process.env.CHAIN_DATA_DIR ?? new URL('../../../.cache/chain/hardhat', import.meta.url).pathname;

const network = {
  type: 'edr-simulated',
  chainId,
  accounts: { accountsBalance: 10_000n * 10n ** 18n + salt }, // Hardhat's test mnemonic, 20 accounts, as by default
  mining: blockTimeMs > 0 ? { auto: false, interval: blockTimeMs } : { auto: true, interval: 0 },
  // Hardhat refuses an interval under 1000 ms unless blocks may share a timestamp (whole seconds): else
  // it would push each block a second ahead and the chain's time would run away from the clock. So with
  // 250 ms blocks, about four in a row carry the same timestamp.
  allowBlocksWithSameTimestamp: blockTimeMs > 0 && blockTimeMs < 1000,
};

export default {
  // `hardhat node` runs the network named `node` (not `default`) unless --network says otherwise: both here.
  networks: { node: network, default: network },
  paths: { cache: `${dataDir}/cache`, artifacts: `${dataDir}/artifacts` },
};
