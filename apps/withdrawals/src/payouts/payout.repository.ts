import { Injectable } from '@nestjs/common';
import { Network } from '@partner/contracts';
import { Database, statement, Transaction } from '@partner/db';
import { toWithdrawal, Withdrawal, WithdrawalRow } from '../withdrawals/withdrawal.repository';
import { Address, Hex, MinedReceipt } from '../hot-wallets/payout-rail';
import { from, HOLDS_NONCE, PayoutState, UNSIGNED } from './payout-state';

/** One signed version of a withdrawal's payout transaction. */
export interface PayoutVersion {
  id: bigint;
  withdrawalId: number;
  nonce: bigint;
  txHash: Hex;
  rawTx: Hex;
  maxFeePerGasWei: bigint;
  maxPriorityFeeWei: bigint;
  acceptedAt: Date | null;
  broadcastAt: Date | null;
  createdAt: Date;
  /** `transfer`: the withdrawal's USDT transfer; `cancel`: a 0-value self-transfer that takes its nonce. */
  kind: VersionKind;
}

export type VersionKind = 'transfer' | 'cancel';

interface PayoutVersionRow {
  id: string;
  withdrawal_id: number;
  nonce: string;
  tx_hash: Hex;
  raw_tx: Hex;
  max_fee_per_gas_wei: string;
  max_priority_fee_wei: string;
  accepted_at: Date | null;
  broadcast_at: Date | null;
  created_at: Date;
  kind: VersionKind;
}

const toVersion = (r: PayoutVersionRow): PayoutVersion => ({
  id: BigInt(r.id),
  withdrawalId: r.withdrawal_id,
  nonce: BigInt(r.nonce),
  txHash: r.tx_hash,
  rawTx: r.raw_tx,
  maxFeePerGasWei: BigInt(r.max_fee_per_gas_wei),
  maxPriorityFeeWei: BigInt(r.max_priority_fee_wei),
  acceptedAt: r.accepted_at,
  broadcastAt: r.broadcast_at,
  createdAt: r.created_at,
  kind: r.kind,
});

export interface Outstanding {
  micros: bigint;
  transactions: number;
  open: number;
}

/** A version signed and not yet stored. */
export type NewPayoutVersion = Omit<PayoutVersion, 'id' | 'withdrawalId' | 'acceptedAt' | 'broadcastAt'>;

/** A withdrawal being paid, with every signed version of its transaction, oldest first. */
export interface OpenPayout {
  withdrawal: Withdrawal;
  versions: PayoutVersion[];
}

const list = (states: readonly PayoutState[]): string => states.map((x) => `'${x}'`).join(', ');

/**
 * Withdrawals waiting for a nonce that some wallet's float can cover ($3: the largest), in the order they
 * were asked; one waiting aside is taken again as soon as it fits.
 */
const UNSIGNED_DUE = statement(
  'payout_unsigned',
  `SELECT * FROM withdrawals WHERE network = $1 AND payout_state IN (${list(UNSIGNED)}) AND state <> 'pending_approval' AND amount_micros <= $3::bigint
   ORDER BY id LIMIT $2 FOR UPDATE`,
);

/**
 * Per wallet of the network, its payouts holding a nonce: how many (`open`), and of those not yet mined the
 * USDT they will take and how many transactions they are (in flight).
 */
const OUTSTANDING = statement(
  'payout_outstanding',
  `SELECT from_address, coalesce(sum(amount_micros) FILTER (WHERE payout_state <> 'mined'), 0)::text AS micros,
          (count(*) FILTER (WHERE payout_state <> 'mined'))::int AS transactions, count(*)::int AS open
   FROM withdrawals WHERE network = $1 AND payout_state IN (${list(HOLDS_NONCE)}) GROUP BY from_address`,
);

/** Gives each withdrawal its nonce: $1 ids, $3 nonces (as text), $2 the wallet. */
const ASSIGN = statement(
  'payout_assign',
  `UPDATE withdrawals w SET from_address = $2, nonce = u.nonce::bigint, payout_state = 'signed', payout_reason = NULL, payout_waiting_since = NULL
   FROM unnest($1::int[], $3::text[]) AS u(id, nonce)
   WHERE w.id = u.id AND w.payout_state IN (${list(from('signed'))}) RETURNING w.id`,
);

/** Whether a round could sign anything: a withdrawal waits for a nonce and some wallet has fewer than $2 unmined. */
const WORK_FOR = statement(
  'payout_work_for',
  `SELECT EXISTS (SELECT 1 FROM withdrawals WHERE network = $1 AND payout_state IN (${list(UNSIGNED)}) AND state <> 'pending_approval')
      AND EXISTS (SELECT 1 FROM hot_wallets h WHERE h.network = $1 AND h.stopped_by IS NULL
            AND (SELECT count(*) FROM withdrawals w WHERE w.network = $1 AND w.from_address = h.address
                 AND w.payout_state IN ('signed', 'broadcast', 'cancelling')) < $2) AS work`,
);

/** Withdrawals no wallet can pay now ($1 ids), aside with why ($2); `since` kept while they stay aside. */
const SET_ASIDE = statement(
  'payout_set_aside',
  `UPDATE withdrawals SET payout_state = 'aside', payout_reason = $2, payout_waiting_since = coalesce(payout_waiting_since, $3)
   WHERE id = ANY($1::int[]) AND payout_state IN (${list(UNSIGNED)})`,
);

/** Those larger than every wallet's float ($2), aside (the others stay in their turn). */
const ASIDE_ABOVE = statement(
  'payout_aside_above',
  `UPDATE withdrawals SET payout_state = 'aside', payout_reason = 'exceeds_float', payout_waiting_since = coalesce(payout_waiting_since, $3)
   WHERE network = $1 AND payout_state IN (${list(UNSIGNED)}) AND amount_micros > $2::bigint
     AND payout_reason IS DISTINCT FROM 'exceeds_float'`,
);

/** A withdrawal refused before it was signed (the token refuses its destination): failed, never signed. */
const FAIL_UNSIGNED = statement(
  'payout_fail_unsigned',
  `UPDATE withdrawals SET state = 'failed', payout_state = 'finished', failure_reason = $2, updated_at = $3
   WHERE id = ANY($1::int[]) AND state IN ('pending_approval', 'created', 'sent') AND payout_state IN (${list(from('finished'))}) AND nonce IS NULL
   RETURNING *`,
);

/** An operator approved a withdrawal waiting for it: `created`, in its turn to be paid. */
const APPROVE = statement(
  'payout_approve',
  `UPDATE withdrawals SET state = 'created', updated_at = $2 WHERE id = $1 AND state = 'pending_approval' RETURNING *`,
);

/** The withdrawals not signed yet whose destination is one of $1 (lower case), oldest first. */
const UNSIGNED_TO = statement(
  'payout_unsigned_to',
  `SELECT id FROM withdrawals WHERE payout_state IN (${list(UNSIGNED)}) AND lower(address) = ANY($1::text[]) ORDER BY id`,
);

/** The operator cancels a signed payout's nonce: `cancelling` (from signed or broadcast only: not once mined). */
const REQUEST_CANCEL = statement(
  'payout_request_cancel',
  `UPDATE withdrawals SET payout_state = 'cancelling', payout_reason = $2
   WHERE id = $1 AND payout_state IN (${list(from('cancelling'))}) RETURNING *`,
);

/** The cancel took the nonce (final): the withdrawal waits for a new one, from whichever wallet. */
const RELEASE_NONCE = statement(
  'payout_release_nonce',
  `UPDATE withdrawals SET payout_state = 'queued', payout_reason = NULL, from_address = NULL, nonce = NULL,
          block_number = NULL, block_hash = NULL, gas_used = NULL, effective_gas_price_wei = NULL, gas_cost_wei = NULL
   WHERE id = $1 AND payout_state = 'cancelling' RETURNING *`,
);

/** Stores signed versions, one row per array element: $2 the network, $3 the wallet. */
const INSERT_VERSIONS = statement(
  'payout_insert_versions',
  `INSERT INTO payout_transactions (withdrawal_id, network, from_address, nonce, tx_hash, raw_tx, max_fee_per_gas_wei, max_priority_fee_wei, created_at, kind)
   SELECT u.withdrawal_id, $2, $3, u.nonce::bigint, u.tx_hash, u.raw_tx, u.max_fee::numeric, u.max_tip::numeric, u.created_at, u.kind
   FROM unnest($1::int[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::timestamptz[], $10::text[])
        AS u(withdrawal_id, nonce, tx_hash, raw_tx, max_fee, max_tip, created_at, kind)
   RETURNING id, tx_hash`,
);

/** Withdrawals holding a nonce of the wallet, with the versions at that nonce (oldest first), by nonce. */
const OPEN = statement(
  'payout_open',
  `SELECT w.*, (SELECT json_agg(p ORDER BY p.id) FROM payout_transactions p
                WHERE p.withdrawal_id = w.id AND p.from_address = w.from_address AND p.nonce = w.nonce) AS versions
   FROM withdrawals w
   WHERE w.network = $1 AND w.from_address = $2 AND w.payout_state IN (${list(HOLDS_NONCE)})
   ORDER BY w.nonce LIMIT $3`,
);

/** $1 as bigint: the operator's path takes any safe integer, past the int4 column's range (then no row, not an error). */
const LOCK_ONE = statement(
  'payout_lock_one',
  `SELECT w.*, (SELECT json_agg(p ORDER BY p.id) FROM payout_transactions p
                WHERE p.withdrawal_id = w.id AND p.from_address = w.from_address AND p.nonce = w.nonce) AS versions
   FROM withdrawals w WHERE w.id = $1::bigint FOR UPDATE OF w`,
);

/** Versions broadcast at $2: $1 their ids, $3 whether a node accepted (or already had) each. */
const MARK_BROADCAST = statement(
  'payout_mark_broadcast',
  `UPDATE payout_transactions p SET broadcast_at = $2, accepted_at = CASE WHEN u.accepted THEN coalesce(p.accepted_at, $2) ELSE p.accepted_at END
   FROM unnest($1::bigint[], $3::bool[]) AS u(id, accepted) WHERE p.id = u.id`,
);

/**
 * `created` → `sent` once a node accepted a version (updated_at moves: the event's time); for a later
 * version accepted (a replacement) only tx_hash moves along. `previous`: the state before.
 */
const MARK_SENT = statement(
  'payout_mark_sent',
  `WITH u AS (SELECT * FROM unnest($1::int[], $2::text[]) AS u(id, tx_hash)),
        before AS (SELECT w.id, w.state FROM withdrawals w JOIN u ON u.id = w.id WHERE w.state IN ('created', 'sent') ORDER BY w.id FOR UPDATE OF w)
   UPDATE withdrawals w SET state = 'sent', tx_hash = u.tx_hash, updated_at = CASE WHEN before.state = 'created' THEN $3 ELSE w.updated_at END,
          payout_state = CASE WHEN w.payout_state = 'signed' THEN 'broadcast' ELSE w.payout_state END
   FROM before JOIN u ON u.id = before.id WHERE w.id = before.id
   RETURNING w.*, before.state AS previous`,
);

const RECORD_MINED = statement(
  'payout_record_mined',
  `UPDATE withdrawals SET tx_hash = $2, block_number = $3, block_hash = $4, gas_used = $5, effective_gas_price_wei = $6,
          gas_cost_wei = $5::numeric * $6::numeric, payout_state = 'mined'
   WHERE id = $1 AND state IN ('created', 'sent') AND payout_state IN (${list(from('mined'))}, 'mined')`,
);

const CLEAR_MINED = statement(
  'payout_clear_mined',
  `UPDATE withdrawals SET block_number = NULL, block_hash = NULL, gas_used = NULL, effective_gas_price_wei = NULL, gas_cost_wei = NULL,
          payout_state = CASE WHEN payout_state = 'mined' THEN 'broadcast' ELSE payout_state END
   WHERE id = $1 AND state IN ('created', 'sent')`,
);

/** The final move, from `sent` only: a withdrawal is settled or failed once, whatever runs twice. */
const FINISH = statement(
  'payout_finish',
  `UPDATE withdrawals SET state = $2, failure_reason = $3, updated_at = $4, payout_state = 'finished',
          settled_at = CASE WHEN $2 = 'settled' THEN $4 ELSE settled_at END
   WHERE id = $1 AND state = 'sent' AND payout_state IN (${list(from('finished'))}) RETURNING *`,
);
/** A payout whose nonce another transaction took, failed by the operator's decision (never by a round). */
const GIVE_UP = statement(
  'payout_give_up',
  `UPDATE withdrawals SET state = 'failed', failure_reason = $2, updated_at = $3, payout_state = 'finished'
   WHERE id = $1 AND state IN ('created', 'sent') AND payout_state IN (${list(HOLDS_NONCE)}) RETURNING *`,
);

/**
 * The payouts' part of the Withdrawal aggregate: nonces given to withdrawals, every signed version of
 * their transactions, and the moves the chain decides (sent, mined, settled or failed). Run by the
 * payout rounds, for every partner at once (no partner asks for these).
 */
@Injectable()
export class PayoutRepository {
  constructor(private readonly db: Database) {}

  /**
   * Withdrawals of `network` waiting for a nonce whose amount is at most `maxMicros` (the largest float of
   * the pool), oldest first, locked for this signing round.
   */
  async unsigned(tx: Transaction, network: Network, limit: number, maxMicros: bigint): Promise<Withdrawal[]> {
    return (await tx.query<WithdrawalRow>(UNSIGNED_DUE, [network, limit, maxMicros.toString()])).rows.map(toWithdrawal);
  }

  /** Per wallet (lower-case address): its payouts holding a nonce, and of those not mined the USDT and transactions. */
  async outstanding(tx: Transaction, network: Network): Promise<Map<string, Outstanding>> {
    const { rows } = await tx.query<{ from_address: string; micros: string; transactions: number; open: number }>(OUTSTANDING, [network]);
    return new Map(rows.map((r) => [r.from_address, { micros: BigInt(r.micros), transactions: r.transactions, open: r.open }]));
  }

  /** Whether a signing round of `network` could sign anything now (see WORK_FOR). */
  async workFor(network: Network, maxInFlight: number): Promise<boolean> {
    const { rows } = await this.db.query<{ work: boolean }>(WORK_FOR, [network, maxInFlight]);
    return rows[0]?.work === true;
  }

  /** `ids` wait aside: no wallet of the pool can pay them now, for `reason`. */
  async setAside(tx: Transaction, ids: number[], reason: string, now: Date): Promise<void> {
    if (ids.length > 0) await tx.query(SET_ASIDE, [ids, reason, now]);
  }

  /** Those of `network` larger than every wallet's float (`maxMicros`) wait aside (`exceeds_float`): how many moved. */
  async setAsideAbove(tx: Transaction, network: Network, maxMicros: bigint, now: Date): Promise<number> {
    return (await tx.query(ASIDE_ABOVE, [network, maxMicros.toString(), now])).rowCount ?? 0;
  }

  /** Fails withdrawals never signed (`reason`: why the token would refuse them); those still open, failed. */
  /** The ids of the withdrawals not signed yet to any of `addresses` (lower case). */
  async unsignedTo(tx: Transaction, addresses: readonly string[]): Promise<number[]> {
    if (addresses.length === 0) return [];
    return (await tx.query<{ id: number }>(UNSIGNED_TO, [addresses])).rows.map((r) => r.id);
  }

  /** The withdrawal, approved: `created` (null when it no longer waits for approval). */
  async approve(tx: Transaction, withdrawalId: number, now: Date): Promise<Withdrawal | null> {
    const { rows } = await tx.query<WithdrawalRow>(APPROVE, [withdrawalId, now]);
    return rows[0] ? toWithdrawal(rows[0]) : null;
  }

  async failUnsigned(tx: Transaction, ids: number[], reason: string, now: Date): Promise<Withdrawal[]> {
    if (ids.length === 0) return [];
    return (await tx.query<WithdrawalRow>(FAIL_UNSIGNED, [ids, reason, now])).rows.map(toWithdrawal);
  }

  /** The operator's cancel of a signed, unmined payout: `cancelling` (null when it is in no state to cancel). */
  async requestCancel(tx: Transaction, withdrawalId: number, note: string): Promise<Withdrawal | null> {
    const { rows } = await tx.query<WithdrawalRow>(REQUEST_CANCEL, [withdrawalId, note]);
    return rows[0] ? toWithdrawal(rows[0]) : null;
  }

  /** Its nonce was taken by its cancel (final): back to `queued`, no wallet, no nonce. */
  async releaseNonce(tx: Transaction, withdrawalId: number): Promise<Withdrawal | null> {
    const { rows } = await tx.query<WithdrawalRow>(RELEASE_NONCE, [withdrawalId]);
    return rows[0] ? toWithdrawal(rows[0]) : null;
  }

  /** A withdrawal locked (to check its payout before an operator's step), whatever its state. */
  async lockOne(tx: Transaction, withdrawalId: number): Promise<OpenPayout | null> {
    const { rows } = await tx.query<WithdrawalRow & { versions: PayoutVersionRow[] | null }>(LOCK_ONE, [withdrawalId]);
    return rows[0] ? toOpen(rows[0]) : null;
  }

  /**
   * Gives each withdrawal its nonce and stores its first signed version, in the signing round's
   * transaction (two statements for the whole batch). Throws if any already held a nonce.
   */
  async assign(
    tx: Transaction,
    network: Network,
    from: Address,
    signed: { withdrawal: Withdrawal; version: NewPayoutVersion }[],
  ): Promise<{ withdrawal: Withdrawal; version: PayoutVersion }[]> {
    if (signed.length === 0) return [];
    const ids = signed.map((s) => s.withdrawal.id);
    const nonces = signed.map((s) => s.version.nonce.toString());
    const { rowCount } = await tx.query(ASSIGN, [ids, from.toLowerCase(), nonces]);
    if (rowCount !== signed.length)
      throw new Error(`${signed.length - (rowCount ?? 0)} of withdrawals ${ids.join(', ')} already held a nonce`);
    const versions = await this.addVersions(
      tx,
      network,
      from,
      signed.map(({ withdrawal, version }) => ({ withdrawalId: withdrawal.id, version })),
    );
    return signed.map(({ withdrawal }, i) => ({ withdrawal, version: versions[i] }));
  }

  /**
   * Stores signed versions not yet broadcast (a first one by `assign`, a replacement: the same nonce, higher
   * fees), in the order given; one statement for them all.
   */
  async addVersions(
    tx: Transaction,
    network: Network,
    from: Address,
    added: { withdrawalId: number; version: NewPayoutVersion }[],
  ): Promise<PayoutVersion[]> {
    if (added.length === 0) return [];
    const versions = added.map((a) => a.version);
    const { rows } = await tx.query<{ id: string; tx_hash: Hex }>(INSERT_VERSIONS, [
      added.map((a) => a.withdrawalId),
      network,
      from.toLowerCase(),
      versions.map((v) => v.nonce.toString()),
      versions.map((v) => v.txHash),
      versions.map((v) => v.rawTx),
      versions.map((v) => v.maxFeePerGasWei.toString()),
      versions.map((v) => v.maxPriorityFeeWei.toString()),
      versions.map((v) => v.createdAt),
      versions.map((v) => v.kind),
    ]);
    // Each version's hash is its own: it names the row RETURNING gave back.
    const idOf = new Map(rows.map((r) => [r.tx_hash, BigInt(r.id)]));
    return added.map(({ withdrawalId, version }) => ({
      ...version,
      id: idOf.get(version.txHash) ?? -1n,
      withdrawalId,
      acceptedAt: null,
      broadcastAt: null,
    }));
  }

  /** Open withdrawals holding a nonce of `from` on `network`, lowest nonce first, each with its versions. */
  async open(network: Network, from: Address, limit: number): Promise<OpenPayout[]> {
    const { rows } = await this.db.query<WithdrawalRow & { versions: PayoutVersionRow[] | null }>(OPEN, [
      network,
      from.toLowerCase(),
      limit,
    ]);
    return rows.map(toOpen);
  }

  /** Versions broadcast now (`accepted`: a node took it or already had it). */
  async markBroadcast(tx: Transaction, said: { versionId: bigint; accepted: boolean }[], now: Date): Promise<void> {
    if (said.length === 0) return;
    await tx.query(MARK_BROADCAST, [said.map((x) => x.versionId.toString()), now, said.map((x) => x.accepted)]);
  }

  /** `created` → `sent` for each accepted version: the withdrawals moved, to report (those `sent` already only move tx_hash along). */
  async markSent(tx: Transaction, accepted: { withdrawalId: number; txHash: Hex }[], now: Date): Promise<Withdrawal[]> {
    if (accepted.length === 0) return [];
    const { rows } = await tx.query<WithdrawalRow & { previous: string }>(MARK_SENT, [
      accepted.map((a) => a.withdrawalId),
      accepted.map((a) => a.txHash),
      now,
    ]);
    return rows.filter((r) => r.previous === 'created').map(toWithdrawal);
  }

  /** Where its transaction was mined and the gas it cost (in `tx` when given, else on its own). */
  async recordMined(withdrawalId: number, r: MinedReceipt, tx?: Transaction): Promise<void> {
    await (tx ?? this.db).query(RECORD_MINED, [
      withdrawalId,
      r.txHash,
      r.blockNumber.toString(),
      r.blockHash,
      r.gasUsed.toString(),
      r.effectiveGasPriceWei.toString(),
    ]);
  }

  /** A reorg took the block away before it was final: the withdrawal waits for its transaction to be mined again. */
  async clearMined(withdrawalId: number): Promise<void> {
    await this.db.query(CLEAR_MINED, [withdrawalId]);
  }

  /** Fails a signed withdrawal that will never be mined (its nonce was taken); null when it is no longer open. */
  async giveUp(tx: Transaction, withdrawalId: number, reason: string, now: Date): Promise<Withdrawal | null> {
    const { rows } = await tx.query<WithdrawalRow>(GIVE_UP, [withdrawalId, reason, now]);
    return rows[0] ? toWithdrawal(rows[0]) : null;
  }

  /** `sent` → `settled` or `failed` (null when it was not `sent`: moved before, by this or another instance). */
  async finish(tx: Transaction, withdrawalId: number, outcome: 'settled' | 'failed', now: Date): Promise<Withdrawal | null> {
    const { rows } = await tx.query<WithdrawalRow>(FINISH, [withdrawalId, outcome, outcome === 'failed' ? 'transfer_reverted' : null, now]);
    return rows[0] ? toWithdrawal(rows[0]) : null;
  }
}

const toOpen = (r: WithdrawalRow & { versions: PayoutVersionRow[] | null }): OpenPayout => ({
  withdrawal: toWithdrawal(r),
  versions: (r.versions ?? []).map((v) =>
    toVersion({ ...v, accepted_at: date(v.accepted_at), broadcast_at: date(v.broadcast_at), created_at: new Date(v.created_at) }),
  ),
});

/** json_agg gives timestamps as text. */
const date = (v: Date | string | null): Date | null => (v === null ? null : new Date(v));
