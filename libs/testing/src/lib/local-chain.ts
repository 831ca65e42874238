/**
 * What end-to-end specs ask the local chains (scripts/chain/local-chains.ts: Hardhat nodes, the test USDT)
 * directly: balances, Transfer logs, the token owner's admin (issue, blacklist, drain), and the node's
 * test controls (balances, mining). Every write waits for its receipt.
 *
 * The owner is Hardhat's development account #0; its actions are serialized per node in this process.
 * Specs in parallel processes acting as the owner on the same node may race on its nonce.
 */
import {
  Address,
  Chain,
  createPublicClient,
  createTestClient,
  createWalletClient,
  defineChain,
  encodeAbiParameters,
  encodeFunctionData,
  Hash,
  Hex,
  http,
  keccak256,
  pad,
  parseAbi,
  PublicClient,
  rpcSchema,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';

/** The test USDT's functions and event as its callers see them: transfer and transferFrom return nothing, as Ethereum's USDT. */
export const TEST_USDT_ABI = parseAbi([
  'function decimals() view returns (uint8)',
  'function balanceOf(address who) view returns (uint256)',
  'function totalSupply() view returns (uint256)',
  'function transfer(address to, uint256 value)',
  'function transferFrom(address from, address to, uint256 value)',
  'function isBlackListed(address who) view returns (bool)',
  'function issue(uint256 amount)',
  'function addBlackList(address evilUser)',
  'function removeBlackList(address clearedUser)',
  'function destroyBlackFunds(address blackListedUser)',
  'function REFUSED_DESTINATION() view returns (address)',
  'event Transfer(address indexed from, address indexed to, uint256 value)',
]);

/** Hardhat's development account #0 (public test key, local chains only): the token's owner. */
const OWNER_KEY: Hex = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
const OWNER_CALL_GAS = 150_000n;

const publicClient = (rpcUrl: string): PublicClient =>
  createPublicClient({ transport: http(rpcUrl, { retryCount: 0, timeout: 10_000 }), pollingInterval: 100 });
const testClient = (rpcUrl: string) => createTestClient({ mode: 'hardhat', transport: http(rpcUrl, { retryCount: 0, timeout: 10_000 }) });

export async function tokenBalance(rpcUrl: string, token: Address, address: Address): Promise<bigint> {
  return publicClient(rpcUrl).readContract({ address: token, abi: TEST_USDT_ABI, functionName: 'balanceOf', args: [address] });
}

export async function nativeBalance(rpcUrl: string, address: Address): Promise<bigint> {
  return publicClient(rpcUrl).getBalance({ address });
}

export interface TokenAdmin {
  /** Issues `micros` to the owner and transfers them to `address`. */
  issueTo(address: Address, micros: bigint): Promise<void>;
  blacklist(address: Address): Promise<void>;
  unblacklist(address: Address): Promise<void>;
  /** Burns the whole balance of `address` (blacklist, destroyBlackFunds, then back as it was). */
  drain(address: Address): Promise<void>;
}

const ownerQueues = new Map<string, Promise<unknown>>();

/** The node's chain as viem's wallet client wants it. */
async function localChain(rpcUrl: string): Promise<Chain> {
  return defineChain({
    id: await publicClient(rpcUrl).getChainId(),
    name: 'local',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });
}

/** Runs the owner's actions on one node one after another (consecutive nonces). */
function asOwner<T>(rpcUrl: string, work: () => Promise<T>): Promise<T> {
  const previous = ownerQueues.get(rpcUrl) ?? Promise.resolve();
  const next = previous.then(work, work);
  ownerQueues.set(
    rpcUrl,
    next.catch(() => undefined),
  );
  return next;
}

/** Sends the owner's calls at consecutive nonces (one block with interval mining), then waits for every receipt. */
async function ownerCalls(rpcUrl: string, token: Address, calls: Hex[]): Promise<void> {
  const client = publicClient(rpcUrl);
  const chain = await localChain(rpcUrl);
  const account = privateKeyToAccount(OWNER_KEY);
  const wallet = createWalletClient({ account, chain, transport: http(rpcUrl, { retryCount: 0, timeout: 10_000 }) });
  let nonce = await client.getTransactionCount({ address: account.address, blockTag: 'pending' });
  const hashes: Hash[] = [];
  // A fixed gas limit: a call sent before the previous one is mined cannot be estimated on the state it will run on.
  for (const data of calls) hashes.push(await wallet.sendTransaction({ to: token, data, nonce: nonce++, gas: OWNER_CALL_GAS }));
  for (const hash of hashes) {
    const receipt = await client.waitForTransactionReceipt({ hash, timeout: 60_000 });
    if (receipt.status !== 'success') throw new Error(`token owner's transaction ${hash} reverted`);
  }
}

/** The token's owner: issue, blacklist, drain; each waits for its receipts. */
export function tokenAdmin(rpcUrl: string, token: Address): TokenAdmin {
  const call = (...data: Hex[]) => asOwner(rpcUrl, () => ownerCalls(rpcUrl, token, data));
  const encode = encodeFunctionData;
  const abi = TEST_USDT_ABI;
  return {
    issueTo: (address, micros) =>
      call(encode({ abi, functionName: 'issue', args: [micros] }), encode({ abi, functionName: 'transfer', args: [address, micros] })),
    blacklist: (address) => call(encode({ abi, functionName: 'addBlackList', args: [address] })),
    unblacklist: (address) => call(encode({ abi, functionName: 'removeBlackList', args: [address] })),
    drain: async (address) => {
      const listed = await publicClient(rpcUrl).readContract({ address: token, abi, functionName: 'isBlackListed', args: [address] });
      const destroy = encode({ abi, functionName: 'destroyBlackFunds', args: [address] });
      await (listed
        ? call(destroy)
        : call(
            encode({ abi, functionName: 'addBlackList', args: [address] }),
            destroy,
            encode({ abi, functionName: 'removeBlackList', args: [address] }),
          ));
    },
  };
}

/** Transactions of `address` the node holds and has not mined: its pending nonce less its latest. */
export async function unminedCount(rpcUrl: string, address: Address): Promise<number> {
  const client = publicClient(rpcUrl);
  const [pending, latest] = await Promise.all([
    client.getTransactionCount({ address, blockTag: 'pending' }),
    client.getTransactionCount({ address, blockTag: 'latest' }),
  ]);
  return pending - latest;
}

/** Sets the native balance of `address` (hardhat_setBalance). */
export async function setNativeBalance(rpcUrl: string, address: Address, wei: bigint): Promise<void> {
  await testClient(rpcUrl).setBalance({ address, value: wei });
}

/**
 * The node's mining: `auto` a block per transaction at once; `intervalMs` > 0 a block every so many ms
 * (0: none on the clock). The local chains start with { auto: false, intervalMs: <block time> }.
 */
export async function setMining(rpcUrl: string, { auto, intervalMs }: { auto: boolean; intervalMs: number }): Promise<void> {
  const client = testClient(rpcUrl);
  await client.setAutomine(auto);
  await client.setIntervalMining({ interval: intervalMs / 1000 }); // viem's hardhat mode takes seconds
}

/** Mines one block now, with whatever is pending. */
export async function mineBlock(rpcUrl: string): Promise<void> {
  await testClient(rpcUrl).mine({ blocks: 1 });
}

/** Drops a pending transaction from the node's mempool, as a node under pressure evicts one (hardhat_dropTransaction). */
export async function dropTransaction(rpcUrl: string, hash: Hash): Promise<void> {
  await testClient(rpcUrl).dropTransaction({ hash });
}

export interface TransferLog {
  from: Address;
  to: Address;
  value: bigint;
  txHash: Hash;
  blockNumber: bigint;
}

/** The token's Transfer logs since genesis, filtered by sender and/or recipient. */
export async function transferLogs(rpcUrl: string, token: Address, filter: { from?: Address; to?: Address } = {}): Promise<TransferLog[]> {
  const logs = await publicClient(rpcUrl).getContractEvents({
    address: token,
    abi: TEST_USDT_ABI,
    eventName: 'Transfer',
    args: { from: filter.from, to: filter.to },
    fromBlock: 0n,
    toBlock: 'latest',
    strict: true,
  });
  return logs.map((log) => ({
    from: log.args.from,
    to: log.args.to,
    value: log.args.value,
    txHash: log.transactionHash,
    blockNumber: log.blockNumber,
  }));
}

/** Hashes of the transactions waiting for a block (Hardhat's eth_pendingTransactions; it has no txpool_* methods). */
export async function pendingTransactions(rpcUrl: string): Promise<Hash[]> {
  const client = createPublicClient({
    transport: http(rpcUrl, { retryCount: 0, timeout: 10_000 }),
    rpcSchema: rpcSchema<[{ Method: 'eth_pendingTransactions'; Parameters: []; ReturnType: { hash: Hash }[] }]>(),
  });
  const pending = await client.request({ method: 'eth_pendingTransactions', params: [] });
  return pending.map((tx) => tx.hash);
}

/**
 * Sends a transaction AS `from` without its key (hardhat_impersonateAccount + eth_sendTransaction), as a thief
 * holding the hot wallet's key would: it takes `from`'s next nonce (or `nonce`). Waits for its receipt; answers its hash.
 */
export async function sendAs(
  rpcUrl: string,
  from: Address,
  tx: { to: Address; data?: Hex; value?: bigint; nonce?: number },
): Promise<Hash> {
  const test = testClient(rpcUrl);
  const client = publicClient(rpcUrl);
  await test.impersonateAccount({ address: from });
  try {
    const wallet = createWalletClient({
      account: from,
      chain: await localChain(rpcUrl),
      transport: http(rpcUrl, { retryCount: 0, timeout: 10_000 }),
    });
    const hash = await wallet.sendTransaction({ to: tx.to, data: tx.data, value: tx.value ?? 0n, nonce: tx.nonce, gas: OWNER_CALL_GAS });
    const receipt = await client.waitForTransactionReceipt({ hash, timeout: 60_000 });
    if (receipt.status !== 'success') throw new Error(`transaction ${hash} sent as ${from} reverted`);
    return hash;
  } finally {
    await test.stopImpersonatingAccount({ address: from });
  }
}

/** A USDT transfer out of `from` that no withdrawal made (sent as `from`, see sendAs): its hash. */
export function outsideTransfer(rpcUrl: string, token: Address, from: Address, to: Address, micros: bigint): Promise<Hash> {
  return sendAs(rpcUrl, from, {
    to: token,
    data: encodeFunctionData({ abi: TEST_USDT_ABI, functionName: 'transfer', args: [to, micros] }),
  });
}

/** The test USDT's storage slot of `isBlackListed` (TestUsdt.sol: name, symbol, owner, _totalSupply, balances, allowed, isBlackListed). */
const BLACKLIST_SLOT = 6n;

/**
 * Blacklists (or clears) `address` on the test token at once, without a transaction (hardhat_setStorageAt):
 * for specs that need the token to turn against a wallet while mining is paused, between the signing of its
 * transfers and their mining. Checks the token agrees afterwards.
 */
export async function setBlacklistedNow(rpcUrl: string, token: Address, address: Address, listed: boolean): Promise<void> {
  const slot = keccak256(encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }], [address, BLACKLIST_SLOT]));
  await testClient(rpcUrl).setStorageAt({ address: token, index: slot, value: pad(listed ? '0x01' : '0x00', { size: 32 }) });
  const now = await publicClient(rpcUrl).readContract({
    address: token,
    abi: TEST_USDT_ABI,
    functionName: 'isBlackListed',
    args: [address],
  });
  if (now !== listed)
    throw new Error(`the test token's isBlackListed is not at slot ${BLACKLIST_SLOT}: TestUsdt.sol's storage layout changed`);
}
