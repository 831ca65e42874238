import { Injectable } from '@nestjs/common';
import { Network } from '@partner/contracts';
import { Database, statement, Transaction } from '@partner/db';

export interface HotWallet {
  network: Network;
  address: string;
  chainId: number;
  genesisHash: string;
  nextNonce: bigint;
  /** The chain's block when it was registered (null: registered before this was kept). */
  registeredBlock: bigint | null;
  /** The last block the scan for outside transfers has read (null: none yet). */
  scannedBlock: bigint | null;
  /** The open finding that stopped its signing (nonce_ahead, reverts_in_a_row), and its detail (null: it signs). */
  stopped: { findingId: number; detail: string } | null;
  /** Why the lane signs nothing now though it is not stopped (token_refuses_wallet, usdt_short...), and since when. */
  waiting: { reason: string; since: Date } | null;
  revertsInARow: number;
}

interface HotWalletRow {
  network: Network;
  address: string;
  chain_id: number;
  genesis_hash: string;
  next_nonce: string;
  registered_block: string | null;
  scanned_block: string | null;
  stopped_by: string | null;
  stopped_detail: string | null;
  waiting_reason: string | null;
  waiting_since: Date | null;
  reverts_in_a_row: number;
}

const toHotWallet = (r: HotWalletRow): HotWallet => ({
  network: r.network,
  address: r.address,
  chainId: r.chain_id,
  genesisHash: r.genesis_hash,
  nextNonce: BigInt(r.next_nonce),
  registeredBlock: r.registered_block === null ? null : BigInt(r.registered_block),
  scannedBlock: r.scanned_block === null ? null : BigInt(r.scanned_block),
  stopped: r.stopped_by === null ? null : { findingId: Number(r.stopped_by), detail: r.stopped_detail ?? '' },
  waiting: r.waiting_reason === null ? null : { reason: r.waiting_reason, since: r.waiting_since ?? new Date(0) },
  revertsInARow: r.reverts_in_a_row,
});

const REGISTER = statement(
  'hot_wallet_register',
  `INSERT INTO hot_wallets (network, address, chain_id, genesis_hash, next_nonce, registered_block) VALUES ($1, $2, $3, $4, $5, $6)
   ON CONFLICT (network, address) DO NOTHING`,
);
const WITH_STOP = `SELECT h.*, f.detail AS stopped_detail FROM hot_wallets h LEFT JOIN reconciliation_findings f ON f.id = h.stopped_by`;
const FIND = statement('hot_wallet_find', `${WITH_STOP} WHERE h.network = $1 AND h.address = $2`);
const LOCK = statement('hot_wallet_lock', `${WITH_STOP} WHERE h.network = $1 AND h.address = $2 FOR UPDATE OF h`);
/** The lanes of a network, locked in one order (by address) so that two rounds never deadlock. */
const LOCK_ALL = statement(
  'hot_wallet_lock_all',
  `${WITH_STOP} WHERE h.network = $1 AND h.address = ANY($2::text[]) ORDER BY h.address FOR UPDATE OF h`,
);
const LIST = statement('hot_wallet_list', `${WITH_STOP} ORDER BY h.network, h.created_at, h.address`);
/** A lane's waiting reason; its `since` moves only when the reason changes. */
const WAITING = statement(
  'hot_wallet_waiting',
  `UPDATE hot_wallets SET waiting_reason = $3,
          waiting_since = CASE WHEN $3::text IS NULL THEN NULL WHEN waiting_reason IS NOT DISTINCT FROM $3 THEN waiting_since ELSE $4 END
   WHERE network = $1 AND address = $2 AND waiting_reason IS DISTINCT FROM $3`,
);
/** Transfers mined as reverts in a row: $3 the reverts after the last settlement, $4 whether one settled since the count began. */
const REVERTS = statement(
  'hot_wallet_reverts',
  `UPDATE hot_wallets SET reverts_in_a_row = CASE WHEN $4 THEN 0 ELSE reverts_in_a_row END + $3
   WHERE network = $1 AND address = $2 RETURNING reverts_in_a_row`,
);
const STOP = statement('hot_wallet_stop', 'UPDATE hot_wallets SET stopped_by = $3, updated_at = $4 WHERE network = $1 AND address = $2');
/** Lifts the stop a finding put, taking the chain's count of the wallet's transactions as its next nonce. */
const LIFT = statement(
  'hot_wallet_lift',
  `UPDATE hot_wallets SET stopped_by = NULL, reverts_in_a_row = 0, next_nonce = greatest(next_nonce, $2::bigint), updated_at = $3
   WHERE stopped_by = $1`,
);
const SCANNED = statement('hot_wallet_scanned', 'UPDATE hot_wallets SET scanned_block = $3 WHERE network = $1 AND address = $2');
const ADVANCE = statement(
  'hot_wallet_advance',
  'UPDATE hot_wallets SET next_nonce = $3, updated_at = $4 WHERE network = $1 AND address = $2',
);
const PENDING = statement(
  'hot_wallet_pending',
  `SELECT network, count(*)::int AS pending FROM withdrawals WHERE state IN ('created', 'sent') GROUP BY network`,
);
/** Per wallet: its transactions signed and not yet mined (in flight), and its withdrawals not final. */
const IN_FLIGHT = statement(
  'hot_wallet_in_flight',
  `SELECT network, from_address, (count(*) FILTER (WHERE payout_state IN ('signed', 'broadcast', 'cancelling')))::int AS in_flight,
          count(*)::int AS open
   FROM withdrawals WHERE payout_state IN ('signed', 'broadcast', 'mined', 'cancelling') GROUP BY network, from_address`,
);
/** Withdrawals waiting aside (no wallet can pay them now), by network and reason. */
const ASIDE = statement(
  'hot_wallet_aside',
  `SELECT network, payout_reason AS reason, count(*)::int AS count, coalesce(sum(amount_micros), 0)::text AS micros, min(payout_waiting_since) AS since
   FROM withdrawals WHERE payout_state = 'aside' GROUP BY network, payout_reason`,
);

/**
 * The hot wallets of the pool, one lane per (network, wallet): its nonce allocator, the chain it was first
 * used on, why it waits or was stopped. A network's rows are locked for a whole signing round, so two
 * instances never hand out one nonce twice.
 */
@Injectable()
export class HotWalletRepository {
  constructor(private readonly db: Database) {}

  /** The wallet's row, registered with `firstNonce` (the chain's count of its transactions) the first time. */
  async register(
    network: Network,
    address: string,
    chainId: number,
    genesisHash: string,
    firstNonce: bigint,
    block: bigint,
  ): Promise<HotWallet> {
    await this.db.query(REGISTER, [network, address.toLowerCase(), chainId, genesisHash, firstNonce.toString(), block.toString()]);
    const { rows } = await this.db.query<HotWalletRow>(FIND, [network, address.toLowerCase()]);
    return toHotWallet(rows[0]);
  }

  async find(network: Network, address: string): Promise<HotWallet | null> {
    const { rows } = await this.db.query<HotWalletRow>(FIND, [network, address.toLowerCase()]);
    return rows[0] ? toHotWallet(rows[0]) : null;
  }

  /** The wallet locked until `tx` ends: this round alone hands out its nonces. */
  async lock(tx: Transaction, network: Network, address: string): Promise<HotWallet> {
    const { rows } = await tx.query<HotWalletRow>(LOCK, [network, address.toLowerCase()]);
    if (!rows[0]) throw new Error(`hot wallet ${address} on ${network} is not registered`);
    return toHotWallet(rows[0]);
  }

  /** A network's lanes `addresses`, locked until `tx` ends (in address order), by lower-case address. */
  async lockAll(tx: Transaction, network: Network, addresses: string[]): Promise<Map<string, HotWallet>> {
    const { rows } = await tx.query<HotWalletRow>(LOCK_ALL, [network, addresses.map((a) => a.toLowerCase())]);
    return new Map(rows.map((r) => [r.address, toHotWallet(r)]));
  }

  /** Every wallet the books know, configured or not any more, by network. */
  async list(): Promise<HotWallet[]> {
    return (await this.db.query<HotWalletRow>(LIST)).rows.map(toHotWallet);
  }

  /** Why the lane signs nothing now (null: it signs); changes only what changed. */
  async setWaiting(tx: Transaction, network: Network, address: string, reason: string | null, now: Date): Promise<boolean> {
    const { rowCount } = await tx.query(WAITING, [network, address.toLowerCase(), reason, now]);
    return (rowCount ?? 0) > 0;
  }

  /**
   * Counts a lane's final outcomes in nonce order (true: reverted): the reverts after its last settlement
   * are added to the count (reset first when one settled). The count after.
   */
  async countReverts(tx: Transaction, network: Network, address: string, outcomes: boolean[]): Promise<number> {
    const lastSettled = outcomes.lastIndexOf(false);
    const after = outcomes.slice(lastSettled + 1).filter(Boolean).length;
    const { rows } = await tx.query<{ reverts_in_a_row: number }>(REVERTS, [network, address.toLowerCase(), after, lastSettled >= 0]);
    return rows[0]?.reverts_in_a_row ?? 0;
  }

  /** Per `network:address` (lower case): transactions in flight (signed, not mined) and withdrawals open. */
  async inFlight(): Promise<Map<string, { inFlight: number; open: number }>> {
    const { rows } = await this.db.query<{ network: Network; from_address: string; in_flight: number; open: number }>(IN_FLIGHT);
    return new Map(rows.map((r) => [`${r.network}:${r.from_address}`, { inFlight: r.in_flight, open: r.open }]));
  }

  /** Withdrawals waiting aside, by network and reason. */
  async aside(): Promise<{ network: Network; reason: string; count: number; micros: bigint; since: Date }[]> {
    const { rows } = await this.db.query<{ network: Network; reason: string; count: number; micros: string; since: Date }>(ASIDE);
    return rows.map((r) => ({ ...r, micros: BigInt(r.micros) }));
  }

  async advance(tx: Transaction, network: Network, address: string, nextNonce: bigint, now: Date): Promise<void> {
    await tx.query(ADVANCE, [network, address.toLowerCase(), nextNonce.toString(), now]);
  }

  /** Stops signing from the wallet until `findingId` is resolved. */
  async stop(tx: Transaction, network: Network, address: string, findingId: number, now: Date): Promise<void> {
    await tx.query(STOP, [network, address.toLowerCase(), findingId, now]);
  }

  /** Lifts the stop `findingId` put (if any), the wallet's next nonce at least `minedNonce`. */
  async lift(tx: Transaction, findingId: number, minedNonce: bigint, now: Date): Promise<void> {
    await tx.query(LIFT, [findingId, minedNonce.toString(), now]);
  }

  /** The scan for outside transfers has read up to `block`. */
  async scanned(network: Network, address: string, block: bigint): Promise<void> {
    await this.db.query(SCANNED, [network, address.toLowerCase(), block.toString()]);
  }

  /** Withdrawals not final yet, by network. */
  async pendingByNetwork(): Promise<Map<Network, number>> {
    const { rows } = await this.db.query<{ network: Network; pending: number }>(PENDING);
    return new Map(rows.map((r) => [r.network, r.pending]));
  }
}
