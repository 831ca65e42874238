import { Address, BroadcastOutcome, FeeMarket, Hex, MinedReceipt, PayoutRail, ReceiptInDoubt, WalletTransfer } from './payout-rail';

/** What two nodes must agree on: the block, the status and every USDT transfer. */
const fingerprint = (r: MinedReceipt): string =>
  JSON.stringify([
    r.blockNumber.toString(),
    r.blockHash.toLowerCase(),
    r.succeeded,
    r.transfers.map((t) => [t.token.toLowerCase(), t.from.toLowerCase(), t.to.toLowerCase(), t.value.toString()]),
  ]);

/**
 * One network over two nodes (CHAIN_RPC_URL_<network> and CHAIN_RPC_URL_2_<network>), so that no single
 * node decides what is paid: a receipt counts only when both tell the same one, a block is final only when
 * both say so, and both must be fit to answer. Broadcasts go to both (the second's answer is not waited on
 * for the outcome: the first's counts); everything else is read from the first.
 */
export class ConfirmingRail implements PayoutRail {
  readonly network;
  readonly token: Address;

  constructor(
    private readonly first: PayoutRail,
    private readonly second: PayoutRail,
  ) {
    this.network = first.network;
    this.token = first.token;
  }

  async chainId(): Promise<number> {
    const [a, b] = await Promise.all([this.first.chainId(), this.second.chainId()]);
    if (a !== b) throw new Error(`the second node serves chain ${b}, the first chain ${a}`);
    return a;
  }

  async genesisHash(): Promise<Hex> {
    const [a, b] = await Promise.all([this.first.genesisHash(), this.second.genesisHash()]);
    if (a !== b) throw new Error(`the second node serves another chain (genesis ${b}) than the first (genesis ${a})`);
    return a;
  }

  tokenDecimals(): Promise<number> {
    return this.first.tokenDecimals();
  }

  balances(address: Address): Promise<{ usdtMicros: bigint; nativeWei: bigint }> {
    return this.first.balances(address);
  }

  feeMarket(): Promise<FeeMarket> {
    return this.first.feeMarket();
  }

  minedNonce(address: Address): Promise<bigint> {
    return this.first.minedNonce(address);
  }

  async broadcast(rawTxs: Hex[]): Promise<BroadcastOutcome[]> {
    // The same bytes to the second node too (harmless twice); only the first's answer is recorded.
    const [outcomes] = await Promise.all([this.first.broadcast(rawTxs), this.second.broadcast(rawTxs).catch(() => undefined)]);
    return outcomes;
  }

  async receipt(txHash: Hex): Promise<MinedReceipt | null> {
    const [a, b] = await Promise.all([this.first.receipt(txHash), this.second.receipt(txHash)]);
    if (a === null && b === null) return null;
    if (a === null || b === null)
      throw new ReceiptInDoubt('lagging', `${txHash} is mined on the ${a ? 'first' : 'second'} node only (so far)`);
    if (fingerprint(a) !== fingerprint(b))
      throw new ReceiptInDoubt(
        'disagreement',
        `the nodes tell different receipts of ${txHash}: block ${a.blockHash} status ${a.succeeded ? 1 : 0} with ${a.transfers.length} transfer(s) vs block ${b.blockHash} status ${b.succeeded ? 1 : 0} with ${b.transfers.length} transfer(s)`,
      );
    return a;
  }

  knows(txHash: Hex): Promise<boolean> {
    return this.first.knows(txHash);
  }

  latestBlock(): Promise<bigint> {
    return this.first.latestBlock();
  }

  /** What either node shows leaving the wallet: one node hiding a transfer must not hide it from the books. */
  async transfersFrom(from: Address, fromBlock: bigint, toBlock: bigint): Promise<WalletTransfer[]> {
    const [a, b] = await Promise.all([
      this.first.transfersFrom(from, fromBlock, toBlock),
      this.second.transfersFrom(from, fromBlock, toBlock),
    ]);
    const seen = new Map(a.map((t) => [`${t.txHash.toLowerCase()}:${t.logIndex}`, t]));
    for (const t of b) if (!seen.has(`${t.txHash.toLowerCase()}:${t.logIndex}`)) seen.set(`${t.txHash.toLowerCase()}:${t.logIndex}`, t);
    return [...seen.values()];
  }

  async health(now: Date): Promise<string | undefined> {
    const [a, b] = await Promise.all([this.first.health(now), this.second.health(now)]);
    return a ?? (b === undefined ? undefined : `the second node: ${b.replace(/^its node /, 'it ')}`);
  }

  async finalBlock(): Promise<bigint> {
    const [a, b] = await Promise.all([this.first.finalBlock(), this.second.finalBlock()]);
    return a < b ? a : b;
  }

  /** A transfer goes through only if both nodes say so (a node that hides a refusal must not get it signed). */
  async simulateTransfer(from: Address, to: Address, micros: bigint): Promise<string | undefined> {
    const [a, b] = await Promise.all([this.first.simulateTransfer(from, to, micros), this.second.simulateTransfer(from, to, micros)]);
    return a ?? b;
  }

  /** Listed when either node says so: a node that hides a listing cannot make us pay a frozen address. */
  async blacklisted(address: Address): Promise<boolean> {
    const [a, b] = await Promise.all([this.first.blacklisted(address), this.second.blacklisted(address)]);
    return a || b;
  }

  transferData(to: Address, micros: bigint): Hex {
    return this.first.transferData(to, micros);
  }
}
