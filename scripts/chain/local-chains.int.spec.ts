/**
 * The local chains for real: two Hardhat nodes on spare ports (SPEC_CHAIN_PORT_ETH/_MATIC, 28545/28546),
 * the token deployed, a pool of two hot wallets funded; transfers signed with a generated key through an ABI whose
 * transfer declares no outputs (as Ethereum's USDT). Stops them at the end.
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Address, Hex, parseEther, parseEventLogs } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import {
  mineBlock,
  nativeBalance,
  pendingTransactions,
  pollUntil,
  setMining,
  TEST_USDT_ABI,
  tokenAdmin,
  tokenBalance,
  transferLogs,
} from '@partner/testing';
import {
  REFUSED_DESTINATION,
  ChainPorts,
  DEFAULT_USDT_MICROS,
  ensureHotWalletKey,
  ensureHotWalletKeys,
  ensureLocalChains,
  killLocalChain,
  LOCAL_CHAIN_IDS,
  LocalChain,
  localChainClients,
  LocalNetwork,
  localChainRunning,
  stopLocalChains,
} from './local-chains';

jest.setTimeout(120_000);

const ports: ChainPorts = {
  ETH: Number(process.env.SPEC_CHAIN_PORT_ETH ?? 28545),
  MATIC: Number(process.env.SPEC_CHAIN_PORT_MATIC ?? 28546),
};
const BLOCK_TIME_MS = 1000;
const keyDir = mkdtempSync(join(tmpdir(), 'local-chains-spec-'));
const pool = ensureHotWalletKeys([join(keyDir, 'hot-wallet.key'), join(keyDir, 'hot-wallet-2.key')]);
const [{ address: hotWallet, keyFile }, { address: secondWallet }] = pool;
let chains: Record<LocalNetwork, LocalChain>;

const clientsOf = (chain: LocalChain) => {
  const { publicClient, wallet } = localChainClients(chain.network, chain.rpcUrl, readFileSync(keyFile, 'utf8').trim() as Hex);
  return { reader: publicClient, hot: wallet };
};

/** A USDT transfer signed with the hot wallet's key, and its receipt; a gas limit of its own, as estimation refuses a call that reverts. */
async function hotTransfer(chain: LocalChain, to: Address, value: bigint) {
  const { reader, hot } = clientsOf(chain);
  const { tokenAddress: address } = chain;
  const hash = await hot.writeContract({ address, abi: TEST_USDT_ABI, functionName: 'transfer', args: [to, value], gas: 100_000n });
  return { hash, receipt: await reader.waitForTransactionReceipt({ hash, timeout: 30_000 }) };
}

beforeAll(async () => {
  chains = await ensureLocalChains({ ports, hotWallets: [hotWallet, secondWallet], blockTimeMs: BLOCK_TIME_MS, fresh: true });
});

afterAll(async () => {
  await stopLocalChains(ports);
  rmSync(keyDir, { recursive: true, force: true });
});

it('keeps the hot wallet key in a 0600 file and reads the same one back', () => {
  expect(readFileSync(keyFile, 'utf8')).toMatch(/^0x[0-9a-f]{64}\n$/);
  expect(statSync(keyFile).mode & 0o777).toBe(0o600);
  expect(ensureHotWalletKey(keyFile).address).toBe(hotWallet);
});

it("makes each wallet of a pool its own key, and refuses one key twice (two lanes of one account's nonces)", () => {
  expect(secondWallet).not.toBe(hotWallet);
  expect(ensureHotWalletKeys(pool.map((w) => w.keyFile))).toEqual(pool);
  expect(() => ensureHotWalletKeys([keyFile, keyFile])).toThrow(`${keyFile} and ${keyFile} hold the same key (${hotWallet})`);
  expect(() => ensureHotWalletKeys([])).toThrow('no hot wallet key file');
});

it.each(['ETH', 'MATIC'] as const)('%s: its chain id, a 6-decimal USDT, each hot wallet funded, 0x…dEaD refused', async (network) => {
  const chain = chains[network];
  const { reader } = clientsOf(chain);
  expect(chain.started).toBe(true);
  expect(await reader.getChainId()).toBe(LOCAL_CHAIN_IDS[network]);
  const token = { address: chain.tokenAddress, abi: TEST_USDT_ABI } as const;
  expect(await reader.readContract({ ...token, functionName: 'decimals' })).toBe(6);
  expect(await reader.readContract({ ...token, functionName: 'REFUSED_DESTINATION' })).toBe(REFUSED_DESTINATION);
  expect(await reader.readContract({ ...token, functionName: 'isBlackListed', args: [REFUSED_DESTINATION] })).toBe(false);
  for (const address of [hotWallet, secondWallet]) {
    expect({ address, usdt: await tokenBalance(chain.rpcUrl, chain.tokenAddress, address) }).toEqual({
      address,
      usdt: DEFAULT_USDT_MICROS,
    });
    expect({ address, native: await nativeBalance(chain.rpcUrl, address) }).toEqual({ address, native: parseEther('100') });
  }
});

it('gives each chain a genesis of its own', () => {
  expect(chains.ETH.genesisHash).not.toBe(chains.MATIC.genesisHash);
});

it('moves USDT from the hot wallet with a transfer that returns nothing, and logs a Transfer', async () => {
  const chain = chains.ETH;
  const recipient = privateKeyToAccount(generatePrivateKey()).address;
  const before = await tokenBalance(chain.rpcUrl, chain.tokenAddress, hotWallet);

  const { hash, receipt } = await hotTransfer(chain, recipient, 1_500_000n);

  expect(receipt.status).toBe('success');
  expect(parseEventLogs({ abi: TEST_USDT_ABI, logs: receipt.logs, eventName: 'Transfer' }).map((log) => log.args)).toEqual([
    { from: hotWallet, to: recipient, value: 1_500_000n },
  ]);
  expect(await tokenBalance(chain.rpcUrl, chain.tokenAddress, recipient)).toBe(1_500_000n);
  expect(await tokenBalance(chain.rpcUrl, chain.tokenAddress, hotWallet)).toBe(before - 1_500_000n);
  expect(await transferLogs(chain.rpcUrl, chain.tokenAddress, { to: recipient })).toEqual([
    { from: hotWallet, to: recipient, value: 1_500_000n, txHash: hash, blockNumber: receipt.blockNumber },
  ]);
});

it('mines a transfer to the refused 0x…dEaD with status reverted, moving nothing', async () => {
  const chain = chains.MATIC;
  const before = await tokenBalance(chain.rpcUrl, chain.tokenAddress, hotWallet);

  const { receipt } = await hotTransfer(chain, REFUSED_DESTINATION, 1_000_000n);

  expect(receipt.status).toBe('reverted');
  expect(receipt.logs).toEqual([]);
  expect(await tokenBalance(chain.rpcUrl, chain.tokenAddress, hotWallet)).toBe(before);
});

it('pays a blacklisted recipient, as Tether does (its blacklist stops only the sender): the funds arrive, frozen', async () => {
  const chain = chains.ETH;
  const recipient = privateKeyToAccount(generatePrivateKey()).address;
  await tokenAdmin(chain.rpcUrl, chain.tokenAddress).blacklist(recipient);

  const { receipt } = await hotTransfer(chain, recipient, 700_000n);

  expect(receipt.status).toBe('success');
  expect(await tokenBalance(chain.rpcUrl, chain.tokenAddress, recipient)).toBe(700_000n);
});

it('makes blocks on the clock, and a transaction waits for the next block', async () => {
  const chain = chains.ETH;
  const { reader, hot } = clientsOf(chain);
  const blockNumber = () => reader.getBlockNumber();
  const start = await blockNumber();
  await pollUntil('two blocks on the clock', blockNumber, (n) => n >= start + 2n, { timeoutMs: 10_000 });

  await setMining(chain.rpcUrl, { auto: false, intervalMs: 0 }); // the clock stopped: the transaction stays pending
  try {
    const hash = await hot.sendTransaction({ to: REFUSED_DESTINATION, value: 1n });
    expect(await pendingTransactions(chain.rpcUrl)).toContain(hash);
    await expect(reader.getTransactionReceipt({ hash })).rejects.toThrow(/could not be found/);
    await mineBlock(chain.rpcUrl);
    expect((await reader.getTransactionReceipt({ hash })).status).toBe('success');
  } finally {
    await setMining(chain.rpcUrl, { auto: false, intervalMs: BLOCK_TIME_MS });
  }
});

it("acts as the token's owner: drains and issues", async () => {
  const chain = chains.MATIC;
  const admin = tokenAdmin(chain.rpcUrl, chain.tokenAddress);
  await admin.drain(hotWallet);
  expect(await tokenBalance(chain.rpcUrl, chain.tokenAddress, hotWallet)).toBe(0n);
  await admin.issueTo(hotWallet, 42_000_000n);
  expect(await tokenBalance(chain.rpcUrl, chain.tokenAddress, hotWallet)).toBe(42_000_000n);
});

it('reuses a running chain, funding a wallet added to the pool there; a killed one comes back as a new chain', async () => {
  await killLocalChain(ports.MATIC);
  expect(await localChainRunning(ports.MATIC)).toBe(false);
  const spentOnEth = await tokenBalance(chains.ETH.rpcUrl, chains.ETH.tokenAddress, hotWallet);
  expect(spentOnEth).toBeLessThan(DEFAULT_USDT_MICROS); // the transfer above
  const { address: added } = ensureHotWalletKey(join(keyDir, 'hot-wallet-3.key'));

  const again = await ensureLocalChains({ ports, hotWallets: [hotWallet, secondWallet, added], blockTimeMs: BLOCK_TIME_MS });

  expect(again.ETH).toEqual({ ...chains.ETH, started: false });
  expect(again.MATIC.started).toBe(true);
  expect(again.MATIC.genesisHash).not.toBe(chains.MATIC.genesisHash);
  // The reused chain: the new wallet funded, the one that has been paying left as it was.
  expect(await tokenBalance(again.ETH.rpcUrl, again.ETH.tokenAddress, added)).toBe(DEFAULT_USDT_MICROS);
  expect(await nativeBalance(again.ETH.rpcUrl, added)).toBe(parseEther('100'));
  expect(await tokenBalance(again.ETH.rpcUrl, again.ETH.tokenAddress, hotWallet)).toBe(spentOnEth);
  for (const address of [hotWallet, secondWallet, added])
    expect({ address, usdt: await tokenBalance(again.MATIC.rpcUrl, again.MATIC.tokenAddress, address) }).toEqual({
      address,
      usdt: DEFAULT_USDT_MICROS,
    });
});
