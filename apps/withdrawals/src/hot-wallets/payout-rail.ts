import { FeeChoice, Network } from '@partner/contracts';

export type Address = `0x${string}`;
export type Hex = `0x${string}`;

/** Every network's fees now: the next block's base fee and the priority fee each choice offers, in wei. */
export interface FeeMarket {
  nextBaseFeeWei: bigint;
  priorityFeeWei: Record<FeeChoice, bigint>;
}

/** A USDT `Transfer` log of a mined transaction. */
export interface TransferLog {
  token: Address;
  from: Address;
  to: Address;
  value: bigint;
}

/** A USDT `Transfer` out of a wallet, as the chain's logs tell it (one per log: a transaction may hold several). */
export interface WalletTransfer {
  txHash: Hex;
  logIndex: number;
  blockNumber: bigint;
  to: Address;
  value: bigint;
}

/** A mined transaction as its receipt tells it. */
export interface MinedReceipt {
  txHash: Hex;
  blockNumber: bigint;
  blockHash: Hex;
  succeeded: boolean;
  gasUsed: bigint;
  effectiveGasPriceWei: bigint;
  transfers: TransferLog[];
}

/** What a node said to a raw transaction: accepted now, already had it, or refused (with its words). */
export type BroadcastOutcome =
  { accepted: true } | { accepted: false; reason: string; kind: 'known' | 'nonce_used' | 'underpriced' | 'refused' };

/**
 * A receipt that must not be acted on now: `reorg`, the node's receipt is from a block that is not its block
 * at that height (a reorganisation under way); `lagging`, one of two nodes has it and the other not yet;
 * `disagreement`, two nodes tell different receipts (block, status or transfers). The withdrawal waits.
 */
export class ReceiptInDoubt extends Error {
  constructor(
    readonly kind: 'reorg' | 'lagging' | 'disagreement',
    message: string,
  ) {
    super(message);
  }
}

/**
 * The port the payouts speak to one network through (the EVM adapter: evm-payout-rail.ts). Every call may
 * throw when the node is down, slow or answers nonsense: the caller waits and tries again next round.
 */
export interface PayoutRail {
  readonly network: Network;
  /** The USDT contract paid from. */
  readonly token: Address;
  chainId(): Promise<number>;
  /** The hash of block 0: which chain this is, whatever its id says. */
  genesisHash(): Promise<Hex>;
  tokenDecimals(): Promise<number>;
  balances(address: Address): Promise<{ usdtMicros: bigint; nativeWei: bigint }>;
  feeMarket(): Promise<FeeMarket>;
  /** Transactions of `address` mined so far (its next nonce on chain). */
  minedNonce(address: Address): Promise<bigint>;
  /**
   * Sends signed transactions, in this order, in one request (a JSON-RPC batch): what the node said to each.
   * Throws when the node did not answer (it may still have taken some: broadcasting the same bytes again is harmless).
   */
  broadcast(rawTxs: Hex[]): Promise<BroadcastOutcome[]>;
  /**
   * The receipt of `txHash` on the chain as the node sees it now, or null (not mined, or mined in a block a
   * reorg dropped). Throws ReceiptInDoubt when its block is not the node's canonical block at that height.
   */
  receipt(txHash: Hex): Promise<MinedReceipt | null>;
  /** Whether the node knows the transaction at all (pending or mined): false once a mempool dropped it. */
  knows(txHash: Hex): Promise<boolean>;
  /**
   * Why the node must not be asked now (it is syncing, or its newest block is older than the allowed lag),
   * or undefined when it is fit to answer.
   */
  health(now: Date): Promise<string | undefined>;
  /** The latest block's number. */
  latestBlock(): Promise<bigint>;
  /** Every USDT Transfer from `from` in blocks `fromBlock` to `toBlock` (one eth_getLogs: the caller bounds the range). */
  transfersFrom(from: Address, fromBlock: bigint, toBlock: bigint): Promise<WalletTransfer[]>;
  /** The highest block final by this network's rule (the finalized tag, or N confirmations). */
  finalBlock(): Promise<bigint>;
  /**
   * Simulates `transfer(to, micros)` from `from` against the pending state (eth_call): undefined when it
   * would go through, else the node's revert reason (or `reverted`). Throws when the node does not answer.
   */
  simulateTransfer(from: Address, to: Address, micros: bigint): Promise<string | undefined>;
  /**
   * Whether the token contract blacklists `address` (Tether's public `isBlackListed`), as of the latest block.
   * Throws when the node does not answer, or the contract has no such function.
   */
  blacklisted(address: Address): Promise<boolean>;
  /** The calldata of `transfer(to, micros)` on the USDT contract. */
  transferData(to: Address, micros: bigint): Hex;
}

/** What signs one hot wallet's transactions: a key file, or a remote signer (eth_signTransaction). */
export interface PayoutSigner {
  readonly address: Address;
  sign(tx: UnsignedPayout): Promise<Hex>;
}

/** An EIP-1559 transaction of no value, ready to sign: a transfer call to the token, or a cancel (to itself, no data). */
export interface UnsignedPayout {
  chainId: number;
  nonce: bigint;
  to: Address;
  data: Hex;
  gas: bigint;
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
}

export const PAYOUT_RAILS = Symbol('PAYOUT_RAILS');
/** The rails by network (a provider of the hot wallets' module, HotWalletsModule). */
export type PayoutRails = Record<Network, PayoutRail>;
