import { Injectable } from '@nestjs/common';
import { PartnerId } from '@partner/contracts';
import { Database, statement, Transaction } from '@partner/db';
import type { HoldMove } from '../withdrawals/hold-rule';

/** Rows written before the operator API may also say 'sandbox_credit' (the retired sandbox credit). */
export type LedgerReason = 'credit' | 'withdrawal_hold' | 'withdrawal_settle' | 'withdrawal_release';

/** A hold that ends: captured (the transfer settled) or released back to available (it failed). */
export interface HoldEnd {
  partnerId: PartnerId;
  document: string;
  withdrawalId: number;
  micros: bigint;
  released: boolean;
}

const END_HOLDS = statement(
  'accounts_end_holds',
  `WITH input AS (
     SELECT * FROM unnest($1::uuid[], $2::text[], $3::bigint[], $4::bigint[]) AS i(partner_id, document, held, back)),
   updated AS (
     UPDATE accounts a SET held_micros = a.held_micros - i.held, available_micros = a.available_micros + i.back, updated_at = $5
     FROM input i WHERE a.partner_id = i.partner_id AND a.document = i.document AND a.held_micros >= i.held
     RETURNING 1)
   SELECT count(*)::int AS updated FROM updated`,
);

const FIND = statement('accounts_find', 'SELECT available_micros, held_micros FROM accounts WHERE partner_id = $1 AND document = $2');
const LOCK = statement(
  'accounts_lock',
  'SELECT available_micros, held_micros FROM accounts WHERE partner_id = $1 AND document = $2 FOR UPDATE',
);
/** A hold applied as the hold rule (hold-rule.ts) gives it: its deltas added to the balance, and recorded by its ledger line. */
const APPLY_HOLD = statement(
  'accounts_apply_hold',
  `WITH held AS (
     UPDATE accounts SET available_micros = available_micros + $3::bigint, held_micros = held_micros + $4::bigint, updated_at = $6
     WHERE partner_id = $1 AND document = $2 RETURNING 1)
   INSERT INTO ledger_entries (partner_id, document, reason, available_delta, held_delta, withdrawal_id, created_at)
   SELECT $1, $2, 'withdrawal_hold', $3::bigint, $4::bigint, $5, $6 FROM held`,
);

/** Opens the account with nothing in it unless it exists (no ledger entry: nothing moved). A concurrent open waits on the key, then inserts nothing. */
const OPEN = statement(
  'accounts_open',
  `INSERT INTO accounts (partner_id, document, available_micros, held_micros, created_at, updated_at) VALUES ($1, $2, 0, 0, $3, $3)
   ON CONFLICT (partner_id, document) DO NOTHING RETURNING created_at`,
);

/** A partner's accounts by CPF, after one ($2, null for the first page): a range of the primary key. */
const PAGE = {
  name: 'accounts_page',
  text: `SELECT document, created_at, available_micros, held_micros FROM accounts
         WHERE partner_id = $1 AND ($2::text IS NULL OR document > $2) ORDER BY document LIMIT $3`,
};

/** A user as the operator lists them: when registered, and the balance now. */
export interface UserAccount extends Balance {
  document: string;
  createdAt: Date;
}

const CREATED_AT = statement('accounts_created_at', 'SELECT created_at FROM accounts WHERE partner_id = $1 AND document = $2');

/**
 * A credit in one statement: claims the idempotency key by inserting the credit first (a concurrent
 * credit with the same key waits on the primary key, then inserts nothing), adds the amount to the
 * account only if the claim did (a guarded UPDATE on the latest row version, so concurrent credits to
 * one account add up), and writes its ledger entry and its audit row (who, from where, how much: the
 * statement fails, and the credit with it, if that row cannot be written). The caller rolls the transaction back when the key
 * was claimed but no account was credited (unknown user): data-modifying CTEs always run.
 */
const CREDIT = statement(
  'accounts_credit',
  `WITH claim AS (
     INSERT INTO credits (partner_id, idempotency_key, document, amount_micros, reference, created_at, operators)
     VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (partner_id, idempotency_key) DO NOTHING
     RETURNING 1),
   credited AS (
     UPDATE accounts SET available_micros = available_micros + $4::bigint, updated_at = $6
     WHERE partner_id = $1 AND document = $3 AND EXISTS (SELECT 1 FROM claim)
     RETURNING available_micros, held_micros),
   ledger AS (
     INSERT INTO ledger_entries (partner_id, document, reason, available_delta, held_delta, reference, idempotency_key, created_at, operators)
     SELECT $1, $3, 'credit', $4::bigint, 0, $5, $2, $6, $7 FROM credited),
   -- The audit row, in this very statement: a failed write fails the credit.
   audit AS (
     INSERT INTO audit_log (action, partner_id, document, usdt_micros, idempotency_key, reference, operators, client_address, available_micros_after, recorded_at)
     SELECT 'credit', $1, $3, $4::bigint, $2, $5, $7, $8, available_micros, $6 FROM credited)
   SELECT EXISTS (SELECT 1 FROM claim) AS claimed, c.available_micros, c.held_micros
   FROM (SELECT 1) AS one LEFT JOIN credited c ON true`,
);

/** The credit that holds a key, and the current balance of its account. */
const FIND_CREDIT = statement(
  'credits_find',
  `SELECT c.document, c.amount_micros, c.reference, a.available_micros, a.held_micros
   FROM credits c JOIN accounts a ON a.partner_id = c.partner_id AND a.document = c.document
   WHERE c.partner_id = $1 AND c.idempotency_key = $2`,
);

const LEDGER_MANY = statement(
  'ledger_insert_many',
  `INSERT INTO ledger_entries (partner_id, document, reason, available_delta, held_delta, withdrawal_id, created_at)
   SELECT partner_id, document, reason, available_delta, held_delta, withdrawal_id, $7
   FROM unnest($1::uuid[], $2::text[], $3::text[], $4::bigint[], $5::bigint[], $6::int[])
        AS e(partner_id, document, reason, available_delta, held_delta, withdrawal_id)`,
);

export interface Balance {
  availableMicros: bigint;
  heldMicros: bigint;
}

/** A credit as asked for: `micros` to add to the user's available balance, once per idempotency key. */
export interface NewCredit {
  partnerId: PartnerId;
  idempotencyKey: string;
  document: string;
  micros: bigint;
  reference: string;
  /** Who credited: the operator key(s) (null when no operator sent it). Recorded, not part of what makes a retry the same credit. */
  operators?: string | null;
  /** The address of the operator's client, for the audit row (null when no operator sent it). */
  clientAddress?: string | null;
}

/** What a credit did: applied (the balance after it), nothing for an unknown user, or nothing because the key holds an earlier credit. */
export type CreditOutcome =
  { applied: Balance } | 'user_not_found' | { earlier: Pick<NewCredit, 'document' | 'micros' | 'reference'>; balance: Balance };

interface BalanceRow {
  available_micros: string;
  held_micros: string;
}

const toBalance = (r: BalanceRow): Balance => ({ availableMicros: BigInt(r.available_micros), heldMicros: BigInt(r.held_micros) });

/**
 * A user's USDT account under one partner. Every movement of money goes through here and writes its
 * ledger entry in the same transaction; the guarded UPDATEs and the CHECK constraints (a hold's UPDATE
 * adds its deltas and relies on `accounts_available_non_negative`) make an overdraft impossible under any
 * concurrency.
 */
@Injectable()
export class AccountRepository {
  constructor(private readonly db: Database) {}

  async find(partnerId: PartnerId, document: string): Promise<Balance | null> {
    const { rows } = await this.db.query<BalanceRow>(FIND, [partnerId, document]);
    return rows[0] ? toBalance(rows[0]) : null;
  }

  /** A page of the partner's users (their accounts), by CPF. */
  async page(partnerId: PartnerId, { afterDocument, take }: { afterDocument?: string; take: number }): Promise<UserAccount[]> {
    const { rows } = await this.db.query<BalanceRow & { document: string; created_at: Date }>(PAGE, [
      partnerId,
      afterDocument ?? null,
      take,
    ]);
    return rows.map((row) => ({ ...toBalance(row), document: row.document.trim(), createdAt: row.created_at }));
  }

  /**
   * Opens the user's account with a zero balance unless it exists; tells whether it was new and when it
   * was opened. One statement each on the pool: a single row and no event, so no unit of work. After a
   * lost race the insert returns nothing and the second statement sees the winner's committed row.
   */
  async open(partnerId: PartnerId, document: string, now: Date): Promise<{ created: boolean; createdAt: Date }> {
    const inserted = await this.db.query<{ created_at: Date }>(OPEN, [partnerId, document, now]);
    if (inserted.rows[0]) return { created: true, createdAt: inserted.rows[0].created_at };
    const { rows } = await this.db.query<{ created_at: Date }>(CREATED_AT, [partnerId, document]);
    return { created: false, createdAt: rows[0].created_at };
  }

  /**
   * Applies a credit with its ledger entry (see CREDIT), or reads the earlier credit that holds its key:
   * after CREDIT lost the key, this transaction's next statement (READ COMMITTED) sees the winner.
   * On 'user_not_found' the caller must roll back: the key was claimed.
   */
  async credit(tx: Transaction, credit: NewCredit, now: Date): Promise<CreditOutcome> {
    const { partnerId, idempotencyKey, document, micros, reference, operators, clientAddress } = credit;
    const {
      rows: [row],
    } = await tx.query<{ claimed: boolean; available_micros: string | null; held_micros: string | null }>(CREDIT, [
      partnerId,
      idempotencyKey,
      document,
      micros.toString(),
      reference,
      now,
      operators ?? null,
      clientAddress ?? null,
    ]);
    // Both balance columns come from the one credited row: null together (nothing credited) or set together.
    if (row.available_micros !== null && row.held_micros !== null)
      return { applied: toBalance({ available_micros: row.available_micros, held_micros: row.held_micros }) };
    if (row.claimed) return 'user_not_found';
    const {
      rows: [earlier],
    } = await tx.query<BalanceRow & { document: string; amount_micros: string; reference: string }>(FIND_CREDIT, [
      partnerId,
      idempotencyKey,
    ]);
    if (!earlier) throw new Error(`credit ${idempotencyKey} of partner ${partnerId} conflicted but cannot be read`);
    return {
      earlier: { document: earlier.document.trimEnd(), micros: BigInt(earlier.amount_micros), reference: earlier.reference },
      balance: toBalance(earlier),
    };
  }

  /**
   * Ends the holds of withdrawals the chain confirmed, a batch in two statements: every account's held
   * amount goes down by the sum of its withdrawals (and back to available for the failed ones), guarded
   * so that a hold can never go negative; then one ledger entry per withdrawal. A missing hold means the
   * books are wrong: it throws, and the whole batch rolls back rather than write a bad ledger.
   */
  /** The user's balance, its row locked to the end of `tx` (null: no such user). */
  async lock(tx: Transaction, partnerId: PartnerId, document: string): Promise<Balance | null> {
    const { rows } = await tx.query<BalanceRow>(LOCK, [partnerId, document]);
    return rows[0] ? toBalance(rows[0]) : null;
  }

  /** Writes the hold `move` (hold-rule.ts's) for `withdrawalId` on an account locked in `tx`: the balance moved by it, and the ledger line. */
  async applyHold(tx: Transaction, partnerId: PartnerId, document: string, move: HoldMove, withdrawalId: number, now: Date): Promise<void> {
    const values = [partnerId, document, move.availableDelta.toString(), move.heldDelta.toString(), withdrawalId, now];
    await tx.query(APPLY_HOLD, values);
  }

  async endHolds(tx: Transaction, moves: HoldEnd[], now: Date): Promise<void> {
    if (moves.length === 0) return;
    const perAccount = new Map<string, { partnerId: PartnerId; document: string; held: bigint; back: bigint }>();
    for (const m of moves) {
      const key = `${m.partnerId}:${m.document}`;
      const sum = perAccount.get(key) ?? { partnerId: m.partnerId, document: m.document, held: 0n, back: 0n };
      sum.held += m.micros;
      if (m.released) sum.back += m.micros;
      perAccount.set(key, sum);
    }
    const accounts = [...perAccount.values()];
    const {
      rows: [{ updated }],
    } = await tx.query<{ updated: number }>(END_HOLDS, [
      accounts.map((a) => a.partnerId),
      accounts.map((a) => a.document),
      accounts.map((a) => a.held.toString()),
      accounts.map((a) => a.back.toString()),
      now,
    ]);
    if (updated !== accounts.length) throw new Error(`No hold to end on ${accounts.length - updated} of ${accounts.length} accounts`);
    await tx.query(LEDGER_MANY, [
      moves.map((m) => m.partnerId),
      moves.map((m) => m.document),
      moves.map((m): LedgerReason => (m.released ? 'withdrawal_release' : 'withdrawal_settle')),
      moves.map((m) => (m.released ? m.micros : 0n).toString()),
      moves.map((m) => (-m.micros).toString()),
      moves.map((m) => m.withdrawalId),
      now,
    ]);
  }
}
