import { Injectable } from '@nestjs/common';
import { AccountStatus, AccountType, authenticatedPartnerId, BrlLedgerEntryType, PartnerId } from '@partner/contracts';
import { Database, onConstraintViolation, Queryable, statement, Transaction } from '@partner/db';

/** A user's payment account here (its ISPB is the operator's, OPERATOR_ISPB, not stored). */
export interface UserAccountRecord {
  partnerId: PartnerId;
  document: string;
  branch: string;
  number: string;
  type: AccountType;
  openedAt: Date;
  /** Spendable BRL cents. */
  availableBrlCents: bigint;
  /** BRL cents MED cases hold blocked, out of the available ones (the balance is both together). */
  blockedBrlCents: bigint;
  status: AccountStatus;
  statusReason: string | null;
  statusChangedAt: Date | null;
}

/** The account fields a Pix names (with the operator's ISPB): how an inflow finds its user. */
export interface AccountRef {
  branch: string;
  number: string;
  type: AccountType;
}

/** A MED case's movement of the balance: the inflow it is about, the case (DICT's id), the cents (positive), when. */
export interface MedMovement {
  endToEndId: string;
  caseId: string;
  amountCents: bigint;
  at: Date;
}

/** A refund's movement of the balance: the inflow it returns, the refund, its amount (positive), when. */
export interface RefundMovement {
  endToEndId: string;
  refundId: bigint;
  amountCents: bigint;
  at: Date;
}

export interface BrlLedgerLine {
  id: number;
  type: BrlLedgerEntryType;
  endToEndId: string;
  /** The refund a pix_in_refund or pix_in_refund_reversal line is of; null for an inflow's credit. */
  refundId: number | null;
  availableDeltaCents: bigint;
  availableAfterCents: bigint;
  blockedDeltaCents: bigint;
  blockedAfterCents: bigint;
  /** The MED case of a med_* line; null for the others. */
  medCaseId: string | null;
  createdAt: Date;
}

interface AccountRow {
  partner_id: string;
  document: string;
  branch: string;
  number: string;
  type: AccountType;
  opened_at: Date;
  available_brl_cents: string;
  blocked_brl_cents: string;
  status: AccountStatus;
  status_reason: string | null;
  status_changed_at: Date | null;
}

const toAccount = (r: AccountRow): UserAccountRecord => ({
  partnerId: authenticatedPartnerId(r.partner_id),
  document: r.document,
  branch: r.branch,
  number: r.number,
  type: r.type,
  openedAt: r.opened_at,
  availableBrlCents: BigInt(r.available_brl_cents),
  blockedBrlCents: BigInt(r.blocked_brl_cents),
  status: r.status,
  statusReason: r.status_reason,
  statusChangedAt: r.status_changed_at,
});

/** A new user (nothing when known: a concurrent first upsert waits on the primary key, then inserts nothing). */
const INSERT_USER = statement(
  'inflows_user_insert',
  'INSERT INTO users (partner_id, document, name) VALUES ($1, $2, COALESCE($3, $4)) ON CONFLICT (partner_id, document) DO NOTHING RETURNING created_at',
);

/**
 * A known user: its name set when one is given (a later registration with a name sets or replaces it); the
 * default name ($4) only when it has none.
 */
const NAME_USER = statement(
  'inflows_user_name',
  'UPDATE users SET name = COALESCE($3, name, $4) WHERE partner_id = $1 AND document = $2 RETURNING created_at',
);

/**
 * Opens the user's account unless it has one: the number from the sequence `account_numbers` with its check
 * digit (function `account_number`, migration brl_accounts). The sequence is drawn only when an account
 * is opened; a concurrent opening of the same user's account waits on the primary key, then opens nothing.
 */
const OPEN_ACCOUNT = statement(
  'inflows_account_open',
  `INSERT INTO accounts (partner_id, document, branch, number, type, opened_at)
   SELECT $1, $2, $3, account_number(nextval('account_numbers')), 'TRAN', $4
   WHERE NOT EXISTS (SELECT 1 FROM accounts WHERE partner_id = $1 AND document = $2)
   ON CONFLICT (partner_id, document) DO NOTHING
   RETURNING *`,
);

const BY_USER = statement('inflows_account_by_user', 'SELECT * FROM accounts WHERE partner_id = $1 AND document = $2');

/** The account locked for a change of its status (and read with the balance it holds then). */
const LOCK_BY_USER = statement('inflows_account_lock', 'SELECT * FROM accounts WHERE partner_id = $1 AND document = $2 FOR UPDATE');

/**
 * Whether a user's inflow is still settling (it will be credited), a refund of one is on its way (it may be
 * credited back), or a MED case is open or returning (its decision moves the balance): an account is not closed
 * under any.
 */
const UNDER_WAY = statement(
  'inflows_account_inflows_under_way',
  `SELECT EXISTS (SELECT 1 FROM pix_inflows WHERE partner_id = $1 AND document = $2 AND status IN ('processing', 'approved', 'success'))
       OR EXISTS (SELECT 1 FROM pix_in_refunds WHERE partner_id = $1 AND document = $2 AND status IN ('created', 'processing'))
       OR EXISTS (SELECT 1 FROM med_cases WHERE partner_id = $1 AND document = $2 AND status IN ('open', 'returning')) AS under_way`,
);

const SET_STATUS = statement(
  'inflows_account_set_status',
  `UPDATE accounts SET status = $3, status_reason = $4, status_changed_at = $5 WHERE partner_id = $1 AND document = $2 RETURNING *`,
);

/**
 * Whose account a Pix names: the unique (branch, number), and its type too (another type is another account). FOR
 * SHARE: a block or close of the account (FOR UPDATE) waits for the ingestion that read it active, or goes first.
 */
const BY_ACCOUNT = statement(
  'inflows_account_by_account',
  'SELECT * FROM accounts WHERE branch = $1 AND number = $2 AND type = $3 FOR SHARE',
);

/**
 * Moves a user's BRL balance (available, and blocked: $8) by signed amounts with its ledger entry, in the
 * caller's transaction: an inflow's credit (the move to `credited`), a refund's debit, a failed refund's credit
 * back, a MED case's block, release, return and its reversal. The account row is locked by the UPDATE, so the
 * entries of one account follow each other and each one's balances after are exact; the UPDATE matches nothing
 * (and nothing is written) when the user has no account. The callers check under the account's lock that a
 * move is covered; a move that would take either balance below zero fails the statement (the CHECKs
 * accounts_balance_not_negative and accounts_blocked_not_negative): a debit takes available cents only, never
 * blocked ones. (end_to_end_id, type, refund_id) is unique in the ledger for the credit and the refunds' lines,
 * so a second credit of one inflow, or a second debit of one refund, fails the whole transaction rather than
 * move the balance twice.
 */
const MOVE_BALANCE = statement(
  'inflows_account_move_balance',
  `WITH account AS (
     UPDATE accounts SET available_brl_cents = available_brl_cents + $4, blocked_brl_cents = blocked_brl_cents + $8
     WHERE partner_id = $1 AND document = $2
     RETURNING available_brl_cents, blocked_brl_cents)
   INSERT INTO brl_ledger_entries (partner_id, document, type, end_to_end_id, refund_id, available_delta_cents, available_after_cents,
                                   blocked_delta_cents, blocked_after_cents, med_case_id, created_at)
   SELECT $1, $2, $5, $3, $6, $4, account.available_brl_cents, $8, account.blocked_brl_cents, $9, $7 FROM account
   RETURNING id`,
);

/** A page of a user's BRL ledger below an id, newest first: the (partner_id, document, id) index, read backwards. */
const LEDGER = statement(
  'inflows_brl_ledger_page',
  `SELECT id, type, end_to_end_id, refund_id, available_delta_cents, available_after_cents, blocked_delta_cents, blocked_after_cents,
          med_case_id, created_at FROM brl_ledger_entries
   WHERE partner_id = $1 AND document = $2 AND id < $3 ORDER BY id DESC LIMIT $4`,
);

const NO_CURSOR = '9223372036854775807';

/**
 * The users known here and their payment accounts, with the BRL balance (the accounts and the ledger).
 * Every lookup a partner can cause is scoped by partner; the one that is not (`ownerOf`) is how the Pix
 * provider's notification, which names an account, finds its partner and user.
 */
@Injectable()
export class AccountRepository {
  constructor(private readonly db: Database) {}

  /**
   * Records the user (and its name, when given) and opens its account unless it has one, in the caller's
   * transaction: the user is never known without an account. `created`: the user is new here.
   */
  async open(
    tx: Transaction,
    user: { partnerId: PartnerId; document: string; name?: string; defaultName?: string; branch: string; now: Date },
  ): Promise<{ created: boolean; createdAt: Date; account: UserAccountRecord }> {
    const values = [user.partnerId, user.document, user.name ?? null, user.defaultName ?? null];
    const inserted = (await tx.query<{ created_at: Date }>(INSERT_USER, values)).rows[0];
    // Known already (or a concurrent first upsert won, committed now): this statement sees the row.
    const known = inserted ?? (await tx.query<{ created_at: Date }>(NAME_USER, values)).rows[0];
    const opened = (await tx.query<AccountRow>(OPEN_ACCOUNT, [user.partnerId, user.document, user.branch, user.now])).rows[0];
    const account = opened ?? (await tx.query<AccountRow>(BY_USER, [user.partnerId, user.document])).rows[0];
    return { created: inserted !== undefined, createdAt: known.created_at, account: toAccount(account) };
  }

  /** The partner's user's account; null when the partner has no such user here. */
  async find(partnerId: PartnerId, document: string, on: Queryable = this.db): Promise<UserAccountRecord | null> {
    const { rows } = await on.query<AccountRow>(BY_USER, [partnerId, document]);
    return rows[0] ? toAccount(rows[0]) : null;
  }

  /** The partner's user's account, locked until the transaction ends; null when the partner has no such user here. */
  async lock(tx: Transaction, partnerId: PartnerId, document: string): Promise<UserAccountRecord | null> {
    const { rows } = await tx.query<AccountRow>(LOCK_BY_USER, [partnerId, document]);
    return rows[0] ? toAccount(rows[0]) : null;
  }

  /** Whether the user has an inflow still settling (processing, approved or success) or a refund under way (created, processing). */
  async inflowsUnderWay(tx: Transaction, partnerId: PartnerId, document: string): Promise<boolean> {
    return (await tx.query<{ under_way: boolean }>(UNDER_WAY, [partnerId, document])).rows[0].under_way;
  }

  async setStatus(
    tx: Transaction,
    partnerId: PartnerId,
    document: string,
    change: { status: AccountStatus; reason: string; at: Date },
  ): Promise<UserAccountRecord> {
    const { rows } = await tx.query<AccountRow>(SET_STATUS, [partnerId, document, change.status, change.reason, change.at]);
    return toAccount(rows[0]);
  }

  /** The account a Pix names (at the operator's ISPB, which the caller checked); null when no user has it. */
  async ownerOf(tx: Transaction, ref: AccountRef): Promise<UserAccountRecord | null> {
    const { rows } = await tx.query<AccountRow>(BY_ACCOUNT, [ref.branch, ref.number, ref.type]);
    return rows[0] ? toAccount(rows[0]) : null;
  }

  /** Credits `amountCents` of the inflow `endToEndId` to the user's account, with its ledger entry (see MOVE_BALANCE). */
  async credit(tx: Transaction, partnerId: PartnerId, document: string, credit: { endToEndId: string; amountCents: bigint; at: Date }) {
    const moved = await this.move(tx, partnerId, document, {
      type: 'pix_in_credit',
      ...credit,
      refundId: 0n,
      deltaCents: credit.amountCents,
    });
    if (!moved) throw new Error(`no account for the user of inflow ${credit.endToEndId}: nothing credited`);
  }

  /**
   * Debits a refund's amount from the user's balance with its ledger entry (pix_in_refund); false, with nothing
   * written, when the user has no account. Throws when the available balance does not cover it (see MOVE_BALANCE).
   */
  debitRefund(tx: Transaction, partnerId: PartnerId, document: string, refund: RefundMovement): Promise<boolean> {
    return this.move(tx, partnerId, document, { type: 'pix_in_refund', ...refund, deltaCents: -refund.amountCents });
  }

  /** Credits a failed refund's amount back to the user's balance with its ledger entry (pix_in_refund_reversal). */
  async creditBackRefund(tx: Transaction, partnerId: PartnerId, document: string, refund: RefundMovement): Promise<void> {
    const moved = await this.move(tx, partnerId, document, { type: 'pix_in_refund_reversal', ...refund, deltaCents: refund.amountCents });
    if (!moved) throw new Error(`no account for the user of refund ${refund.refundId}: nothing credited back`);
  }

  /**
   * Blocks a MED case's cents: from available to blocked, with its med_block line; false, nothing written, when
   * the user has no account. Throws when the available balance does not cover them (the caller caps them at
   * it, under the account's lock; see MOVE_BALANCE).
   */
  medBlock(tx: Transaction, partnerId: PartnerId, document: string, m: MedMovement): Promise<boolean> {
    return this.moveMed(tx, partnerId, document, 'med_block', m, -m.amountCents, m.amountCents, 0n);
  }

  /** Releases a MED case's blocked cents back to available, with its med_release line. */
  async medRelease(tx: Transaction, partnerId: PartnerId, document: string, m: MedMovement): Promise<void> {
    if (!(await this.moveMed(tx, partnerId, document, 'med_release', m, m.amountCents, -m.amountCents, 0n)))
      throw new Error(`no account for the user of MED case ${m.caseId}: nothing released`);
  }

  /** Takes an accepted MED case's blocked cents out of the balance for its devolução (refund `refundId`), with its med_return line. */
  async medReturn(tx: Transaction, partnerId: PartnerId, document: string, m: MedMovement & { refundId: bigint }): Promise<void> {
    if (!(await this.moveMed(tx, partnerId, document, 'med_return', m, 0n, -m.amountCents, m.refundId)))
      throw new Error(`no account for the user of MED case ${m.caseId}: nothing returned`);
  }

  /** Puts a failed MED devolução's cents back into the blocked balance, with its med_return_reversal line. */
  async medReturnReversal(tx: Transaction, partnerId: PartnerId, document: string, m: MedMovement & { refundId: bigint }): Promise<void> {
    if (!(await this.moveMed(tx, partnerId, document, 'med_return_reversal', m, 0n, m.amountCents, m.refundId)))
      throw new Error(`no account for the user of MED case ${m.caseId}: nothing blocked back`);
  }

  private moveMed(
    tx: Transaction,
    partnerId: PartnerId,
    document: string,
    type: BrlLedgerEntryType,
    m: MedMovement,
    deltaCents: bigint,
    blockedDeltaCents: bigint,
    refundId: bigint,
  ): Promise<boolean> {
    return this.move(tx, partnerId, document, {
      type,
      endToEndId: m.endToEndId,
      refundId,
      deltaCents,
      blockedDeltaCents,
      medCaseId: m.caseId,
      at: m.at,
    });
  }

  private async move(
    tx: Transaction,
    partnerId: PartnerId,
    document: string,
    m: {
      type: BrlLedgerEntryType;
      endToEndId: string;
      refundId: bigint;
      deltaCents: bigint;
      blockedDeltaCents?: bigint;
      medCaseId?: string;
      at: Date;
    },
  ): Promise<boolean> {
    const moved = tx.query<{ id: string }>(MOVE_BALANCE, [
      partnerId,
      document,
      m.endToEndId,
      m.deltaCents.toString(),
      m.type,
      m.refundId.toString(),
      m.at,
      (m.blockedDeltaCents ?? 0n).toString(),
      m.medCaseId ?? null,
    ]);
    const belowZero = (balance: string) => (error: Error) => {
      throw new Error(`${m.type} of inflow ${m.endToEndId} would take the user's ${balance} balance below zero: nothing moved`, {
        cause: error,
      });
    };
    // The CHECKs that neither balance goes below zero (migrations brl_accounts and med_cases).
    const { rows } = await onConstraintViolation(moved, {
      accounts_balance_not_negative: belowZero('available'),
      accounts_blocked_not_negative: belowZero('blocked'),
    });
    return rows.length > 0;
  }

  /** A page of the user's BRL ledger, newest first, below `beforeId` when given. */
  async ledger(partnerId: PartnerId, document: string, page: { beforeId?: bigint; take: number }): Promise<BrlLedgerLine[]> {
    const { rows } = await this.db.query<{
      id: string;
      type: BrlLedgerEntryType;
      end_to_end_id: string;
      refund_id: string;
      available_delta_cents: string;
      available_after_cents: string;
      blocked_delta_cents: string;
      blocked_after_cents: string;
      med_case_id: string | null;
      created_at: Date;
    }>(LEDGER, [partnerId, document, page.beforeId?.toString() ?? NO_CURSOR, page.take]);
    return rows.map((r) => ({
      id: Number(r.id),
      type: r.type,
      endToEndId: r.end_to_end_id,
      refundId: r.refund_id === '0' ? null : Number(r.refund_id),
      availableDeltaCents: BigInt(r.available_delta_cents),
      availableAfterCents: BigInt(r.available_after_cents),
      blockedDeltaCents: BigInt(r.blocked_delta_cents),
      blockedAfterCents: BigInt(r.blocked_after_cents),
      medCaseId: r.med_case_id,
      createdAt: r.created_at,
    }));
  }
}
