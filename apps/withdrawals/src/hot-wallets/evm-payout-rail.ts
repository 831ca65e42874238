import {
  BaseError,
  ExecutionRevertedError,
  createPublicClient,
  HttpRequestError,
  TimeoutError,
  encodeFunctionData,
  parseAbi,
  parseEventLogs,
  PublicClient,
  TransactionNotFoundError,
  TransactionReceiptNotFoundError,
} from 'viem';
import { FEE_CHOICES, FeeChoice, Network } from '@partner/contracts';
import { redactedHttp } from './redacted-http';
import {
  Address,
  BroadcastOutcome,
  FeeMarket,
  Hex,
  MinedReceipt,
  PayoutRail,
  ReceiptInDoubt,
  TransferLog,
  WalletTransfer,
} from './payout-rail';

/**
 * USDT's calls as Ethereum's contract has them: `transfer` declares no return value (Tether's contract
 * returns nothing), so nothing here ever decodes one.
 */
export const USDT_ABI = parseAbi([
  'function transfer(address to, uint256 value)',
  'function balanceOf(address owner) view returns (uint256)',
  'function decimals() view returns (uint8)',
  'event Transfer(address indexed from, address indexed to, uint256 value)',
]);

/** Tether's blacklist: a public mapping on Ethereum's TetherToken (and the local chains' TestUsdt). */
const BLACKLIST_ABI = parseAbi(['function isBlackListed(address who) view returns (bool)']);

/**
 * The priority-fee percentile of recent blocks each choice offers (eth_feeHistory's reward percentiles):
 * LOW pays what the cheapest tenth of recent inclusions paid (mined, later), MEDIUM the median, HIGH the
 * ninetieth percentile (near the front of the next block).
 */
export const FEE_PERCENTILES: Record<FeeChoice, number> = { LOW: 10, MEDIUM: 50, HIGH: 90 };
/** Recent blocks whose rewards are read: 20 (4 minutes of Ethereum, 40 s of Polygon). */
const FEE_HISTORY_BLOCKS = 20;

export interface EvmRailSettings {
  network: Network;
  rpcUrl: string;
  token: Address;
  /** `finalized` or a number of confirmations. */
  finality: 'finalized' | number;
  /** A node whose newest block is older than this (seconds) is behind: not asked. */
  maxHeadAgeS: number;
  minPriorityFeeWei: bigint;
  timeoutMs: number;
}

const median = (values: bigint[]): bigint => {
  if (values.length === 0) return 0n;
  const sorted = [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return sorted[Math.floor(sorted.length / 2)];
};

/** A node's refusal, sorted by what it means for us (geth, Erigon, Bor and Hardhat word them alike). */
export function classifyRefusal(message: string): Exclude<BroadcastOutcome, { accepted: true }>['kind'] {
  const m = message.toLowerCase();
  if (m.includes('already known') || m.includes('known transaction') || m.includes('already imported')) return 'known';
  if (m.includes('nonce too low') || m.includes('nonce has already been used')) return 'nonce_used';
  if (m.includes('underpriced') || m.includes('fee too low') || m.includes('max fee per gas less than block base fee'))
    return 'underpriced';
  return 'refused';
}

/** The payout rail of one network over JSON-RPC (viem), to whatever node CHAIN_RPC_URL_<network> names. */
export class EvmPayoutRail implements PayoutRail {
  readonly network: Network;
  readonly token: Address;
  private readonly client: PublicClient;
  /** The same node, requests of one tick sent as one JSON-RPC batch (broadcasts). */
  private readonly batching: PublicClient;

  constructor(private readonly settings: EvmRailSettings) {
    this.network = settings.network;
    this.token = settings.token;
    // No retries inside a call: a round that fails waits for the next one (its own backoff).
    this.client = createPublicClient({ transport: redactedHttp(settings.rpcUrl, { timeout: settings.timeoutMs, retryCount: 0 }) });
    this.batching = createPublicClient({
      transport: redactedHttp(settings.rpcUrl, { timeout: settings.timeoutMs, retryCount: 0, batch: { batchSize: 1_000, wait: 0 } }),
    });
  }

  chainId(): Promise<number> {
    return this.client.getChainId();
  }

  async genesisHash(): Promise<Hex> {
    return (await this.client.getBlock({ blockNumber: 0n })).hash;
  }

  async tokenDecimals(): Promise<number> {
    return Number(await this.client.readContract({ address: this.token, abi: USDT_ABI, functionName: 'decimals' }));
  }

  async balances(address: Address): Promise<{ usdtMicros: bigint; nativeWei: bigint }> {
    const [usdtMicros, nativeWei] = await Promise.all([
      this.client.readContract({ address: this.token, abi: USDT_ABI, functionName: 'balanceOf', args: [address] }),
      this.client.getBalance({ address }),
    ]);
    return { usdtMicros, nativeWei };
  }

  async feeMarket(): Promise<FeeMarket> {
    const percentiles = FEE_CHOICES.map((c) => FEE_PERCENTILES[c]);
    const history = await this.client.getFeeHistory({ blockCount: FEE_HISTORY_BLOCKS, rewardPercentiles: percentiles });
    // baseFeePerGas has one more entry than the blocks read: the next block's.
    const nextBaseFeeWei = history.baseFeePerGas[history.baseFeePerGas.length - 1] ?? 0n;
    const priorityFeeWei = {} as Record<FeeChoice, bigint>;
    FEE_CHOICES.forEach((choice, i) => {
      const offered = median((history.reward ?? []).map((rewards) => rewards[i] ?? 0n));
      priorityFeeWei[choice] = offered > this.settings.minPriorityFeeWei ? offered : this.settings.minPriorityFeeWei;
    });
    return { nextBaseFeeWei, priorityFeeWei };
  }

  async minedNonce(address: Address): Promise<bigint> {
    return BigInt(await this.client.getTransactionCount({ address, blockTag: 'latest' }));
  }

  async broadcast(rawTxs: Hex[]): Promise<BroadcastOutcome[]> {
    // Requested in the same tick: viem sends them as one JSON-RPC batch, in this order.
    const answers = await Promise.allSettled(
      rawTxs.map((rawTx) => this.batching.request({ method: 'eth_sendRawTransaction', params: [rawTx] })),
    );
    return answers.map((answer): BroadcastOutcome => {
      if (answer.status === 'fulfilled') return { accepted: true };
      // A node that answered with a JSON-RPC error refused it; anything else (down, timeout) is thrown on.
      const rpc = rpcErrorMessage(answer.reason);
      if (rpc === undefined) throw answer.reason;
      return { accepted: false, reason: rpc, kind: classifyRefusal(rpc) };
    });
  }

  async receipt(txHash: Hex): Promise<MinedReceipt | null> {
    let r;
    try {
      r = await this.client.getTransactionReceipt({ hash: txHash });
    } catch (error) {
      if (error instanceof TransactionReceiptNotFoundError) return null;
      throw error;
    }
    // A receipt counts only from the node's own block at that height: another hash is a reorg under way.
    const canonical = await this.client.getBlock({ blockNumber: r.blockNumber });
    if (canonical.hash !== r.blockHash)
      throw new ReceiptInDoubt(
        'reorg',
        `${txHash}'s receipt is in block ${r.blockHash} but the node's block ${r.blockNumber} is ${canonical.hash}`,
      );
    // Logs that are not the token's Transfer (or do not decode as one) are left out.
    const transfers: TransferLog[] = parseEventLogs({ abi: USDT_ABI, eventName: 'Transfer', logs: r.logs })
      .filter((log) => log.address.toLowerCase() === this.token.toLowerCase())
      .map((log) => ({ token: log.address, from: log.args.from, to: log.args.to, value: log.args.value }));
    return {
      txHash: r.transactionHash,
      blockNumber: r.blockNumber,
      blockHash: r.blockHash,
      succeeded: r.status === 'success',
      gasUsed: r.gasUsed,
      effectiveGasPriceWei: r.effectiveGasPrice,
      transfers,
    };
  }

  async knows(txHash: Hex): Promise<boolean> {
    try {
      await this.client.getTransaction({ hash: txHash });
      return true;
    } catch (error) {
      if (error instanceof TransactionNotFoundError) return false;
      throw error;
    }
  }

  async health(now: Date): Promise<string | undefined> {
    const [syncing, head] = await Promise.all([
      // Not in viem's public schema; every node answers it (false, or its progress).
      (this.client.request as (args: { method: 'eth_syncing' }) => Promise<unknown>)({ method: 'eth_syncing' }),
      this.client.getBlock({ blockTag: 'latest' }),
    ]);
    if (syncing !== false) return 'its node is syncing (eth_syncing is not false)';
    const ageS = Math.floor(now.getTime() / 1000) - Number(head.timestamp);
    if (ageS > this.settings.maxHeadAgeS)
      return `its node is behind: its newest block ${head.number} is ${ageS} s old (more than ${this.settings.maxHeadAgeS} s)`;
    return undefined;
  }

  latestBlock(): Promise<bigint> {
    return this.client.getBlockNumber({ cacheTime: 0 });
  }

  async transfersFrom(from: Address, fromBlock: bigint, toBlock: bigint): Promise<WalletTransfer[]> {
    const logs = await this.client.getLogs({
      address: this.token,
      event: USDT_ABI[3],
      args: { from },
      fromBlock,
      toBlock,
      strict: true,
    });
    return logs.map((log) => ({
      txHash: log.transactionHash,
      logIndex: log.logIndex,
      blockNumber: log.blockNumber,
      to: log.args.to,
      value: log.args.value,
    }));
  }

  async finalBlock(): Promise<bigint> {
    if (this.settings.finality === 'finalized') return (await this.client.getBlock({ blockTag: 'finalized' })).number;
    const latest = await this.client.getBlockNumber({ cacheTime: 0 });
    return latest - BigInt(this.settings.finality - 1);
  }

  async simulateTransfer(from: Address, to: Address, micros: bigint): Promise<string | undefined> {
    try {
      await this.client.call({ account: from, to: this.token, data: this.transferData(to, micros), blockTag: 'pending' });
      return undefined;
    } catch (error) {
      // Only a revert is an answer about the transfer; a node down or any other error: the round waits.
      const revert = error instanceof BaseError ? error.walk((e) => e instanceof ExecutionRevertedError) : null;
      const said = rpcErrorMessage(error) ?? '';
      if (revert === null && !/revert/i.test(said)) throw error;
      return (revert as BaseError | null)?.shortMessage?.split('\n')[0] || said || 'reverted';
    }
  }

  blacklisted(address: Address): Promise<boolean> {
    return this.client.readContract({ address: this.token, abi: BLACKLIST_ABI, functionName: 'isBlackListed', args: [address] });
  }

  transferData(to: Address, micros: bigint): Hex {
    return encodeFunctionData({ abi: USDT_ABI, functionName: 'transfer', args: [to, micros] });
  }
}

/**
 * Whether a call failed because the node did not answer (unreachable, too slow, not JSON-RPC over HTTP),
 * as opposed to answering something: a wrong contract is a configuration error, a node down is a pause.
 */
export function isTransportFailure(error: unknown): boolean {
  return error instanceof BaseError && error.walk((e) => e instanceof HttpRequestError || e instanceof TimeoutError) !== null;
}

/** The node's own words when it answered a JSON-RPC error; undefined when it did not answer at all. */
function rpcErrorMessage(error: unknown): string | undefined {
  let e: unknown = error;
  while (e && typeof e === 'object') {
    const o = e as { code?: unknown; details?: unknown; cause?: unknown; name?: string };
    // viem's RpcRequestError / InvalidInputRpcError... carry the node's JSON-RPC code; transport failures do not.
    if (typeof o.code === 'number' && o.code < 0 && o.code > -33000 && typeof o.details === 'string') return o.details;
    e = o.cause;
  }
  return undefined;
}
