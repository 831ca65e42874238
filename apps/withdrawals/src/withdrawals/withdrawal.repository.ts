import { Injectable } from '@nestjs/common';
import {
  authenticatedPartnerId,
  Beneficiary,
  PageRequest,
  FeeChoice,
  Network,
  PartnerId,
  Topics,
  WithdrawalState,
} from '@partner/contracts';
import {
  commandStatement,
  Database,
  KeysetFilter,
  keysetPageStatement,
  OutboxMessage,
  statement,
  statementRefusal,
  Transaction,
  UnitOfWork,
  violatedConstraint,
} from '@partner/db';
import { PayoutState } from '../payouts/payout-state';
import { holdMove } from './hold-rule';

export interface Withdrawal {
  id: number;
  partnerId: PartnerId;
  document: string;
  idempotencyKey: string;
  fingerprint: string;
  address: string;
  network: Network;
  feeChoice: FeeChoice;
  amountMicros: bigint;
  feeMicros: bigint;
  /** Who owns the destination, as the request or the user's saved address named it (null: neither did). */
  beneficiary: Beneficiary | null;
  state: WithdrawalState;
  txHash: string | null;
  failureReason: string | null;
  /** When `reported`: the report to the Receita Federal it was filed in. */
  reportId: string | null;
  createdAt: Date;
  updatedAt: Date;
  /** The payout: the hot wallet and nonce once signed, the block once mined, the gas it cost (wei). */
  payout: PayoutFacts;
}

export interface PayoutFacts {
  /** Where its payout stands (payouts/payout-state.ts), and why it waits aside. */
  state: PayoutState;
  reason: string | null;
  fromAddress: string | null;
  nonce: bigint | null;
  blockNumber: bigint | null;
  blockHash: string | null;
  gasUsed: bigint | null;
  effectiveGasPriceWei: bigint | null;
  gasCostWei: bigint | null;
}

const NO_PAYOUT: PayoutFacts = {
  state: 'queued',
  reason: null,
  fromAddress: null,
  nonce: null,
  blockNumber: null,
  blockHash: null,
  gasUsed: null,
  effectiveGasPriceWei: null,
  gasCostWei: null,
};

/** A withdrawal as it is created (`created`, nothing paid yet), with its id. */
export const createdWithdrawal = (data: NewWithdrawal, id: number, now: Date): Withdrawal => ({
  ...data,
  id,
  state: 'created',
  txHash: null,
  failureReason: null,
  reportId: null,
  createdAt: now,
  updatedAt: now,
  payout: NO_PAYOUT,
});

export type NewWithdrawal = Omit<
  Withdrawal,
  'id' | 'state' | 'txHash' | 'failureReason' | 'reportId' | 'createdAt' | 'updatedAt' | 'payout'
>;

/** A row of `withdrawals` as the driver returns it (int8 and numeric as text). */
export interface WithdrawalRow {
  id: number;
  partner_id: string;
  document: string;
  idempotency_key: string;
  fingerprint: string;
  address: string;
  network: Network;
  fee_choice: FeeChoice;
  amount_micros: string;
  fee_micros: string;
  beneficiary?: Beneficiary | null;
  state: WithdrawalState;
  tx_hash: string | null;
  failure_reason: string | null;
  report_id?: string | null;
  created_at: Date;
  updated_at: Date;
  payout_state?: PayoutState;
  payout_reason?: string | null;
  from_address: string | null;
  nonce: string | null;
  block_number: string | null;
  block_hash: string | null;
  gas_used: string | null;
  effective_gas_price_wei: string | null;
  gas_cost_wei: string | null;
}

const big = (v: string | null): bigint | null => (v === null ? null : BigInt(v));

/** A row parsed into the aggregate, field by field. Its partner id is one a PartnerId was stored as (every write takes one). */
export const toWithdrawal = (r: WithdrawalRow): Withdrawal => ({
  id: r.id,
  partnerId: authenticatedPartnerId(r.partner_id),
  document: r.document.trimEnd(),
  idempotencyKey: r.idempotency_key,
  fingerprint: r.fingerprint,
  address: r.address,
  network: r.network,
  feeChoice: r.fee_choice,
  amountMicros: BigInt(r.amount_micros),
  feeMicros: BigInt(r.fee_micros),
  beneficiary: r.beneficiary ?? null,
  state: r.state,
  txHash: r.tx_hash,
  failureReason: r.failure_reason,
  reportId: r.report_id ?? null,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  payout: {
    state: r.payout_state ?? (r.state === 'created' || r.state === 'sent' ? 'queued' : 'finished'),
    reason: r.payout_reason ?? null,
    fromAddress: r.from_address ?? null,
    nonce: big(r.nonce ?? null),
    blockNumber: big(r.block_number ?? null),
    blockHash: r.block_hash ?? null,
    gasUsed: big(r.gas_used ?? null),
    effectiveGasPriceWei: big(r.effective_gas_price_wei ?? null),
    gasCostWei: big(r.gas_cost_wei ?? null),
  },
});

/** `refused_before`: this very command (its command id) was refused before; nothing was done now. */
export type CreateOutcome = { created: Withdrawal } | 'duplicate' | 'not_found' | 'insufficient' | 'refused_before';

/** The reasons CREATE_HELD aborts with (the message of `refuse`), by outcome. */
const REFUSED = { not_found: 'user_not_found', refused_before: 'refused_before' } as const;
const OUTCOME_OF_REASON = { user_not_found: 'not_found', refused_before: 'refused_before' } as const;

/**
 * The invariant that no balance goes below zero (migration `init`: CHECK available_micros >= 0). A hold
 * it stops is one the hold rule refuses ('insufficient'): the statement does not state the rule again.
 */
const NO_OVERDRAFT = 'accounts_available_non_negative';

/**
 * The id the event of a withdrawal not yet inserted is built with, for the statement to replace with the
 * one it makes: no withdrawal has it (ids are positive), and its text appears in no UUID, CPF or id.
 */
const PENDING_ID = Number.MIN_SAFE_INTEGER;

/**
 * The whole creation in ONE statement, run as its own transaction (UnitOfWork.runCommand: one round trip,
 * the account row locked for this statement only). It states no rule of its own: the hold's deltas, the
 * event's key and its payload come from TypeScript as parameters, the statement only applies them and puts
 * in the id it makes.
 * - `w` claims the idempotency key by inserting the withdrawal (a concurrent duplicate waits on the unique
 *   index, then inserts nothing). The key comes first and no lock is held while waiting on it: a key's
 *   withdrawal may be in the middle of a chain move whose transaction waits for the account row;
 * - `held` adds the hold rule's move (hold-rule.ts's holdMove: $14 to available, $15 to held), only if the
 *   insert happened. No row is read first: the UPDATE computes on the latest row version, and the CHECK
 *   constraint NO_OVERDRAFT aborts the statement when available would go below zero (23514, answered
 *   'insufficient'), so no overdraft under any concurrency. `ledger` records the same two numbers and the
 *   outbox row reports `created`, all only if both happened;
 * - if the insert happened but no account row was moved (no such user), the select calls the migration's
 *   `refuse(reason)`, which aborts the statement: nothing of it commits, the key included (data-modifying
 *   CTEs always run);
 * - before that, and before a replay of the key, a refusal kept under this command's id ($12,
 *   `refused_commands`, null for a command without one) aborts it the same way (`refused_before`): a copy
 *   of a refused command is refused again (runIdempotent's refusal memory), checked in the statement's
 *   own snapshot instead of by a query of its own before it (a round trip per withdrawal). Such a copy
 *   moves no balance (`held` skips it), so its answer is `refused_before` even when the balance is short.
 * The event is the TypeScript builder's (`stateChanged`), built for PENDING_ID: its key (the contract's
 * eventKeyOf) around that id is $16 and $17, its payload $11, and the statement sets the new id in both.
 */
const CREATE_HELD = commandStatement({
  name: 'withdrawal_create_held',
  params: 17,
  with: `kept_refusal AS (
     SELECT 1 FROM refused_commands WHERE command_id = $12::text AND partner_id = $1),
   w AS (
     INSERT INTO withdrawals (partner_id, document, idempotency_key, fingerprint, address, network, fee_choice,
                              amount_micros, fee_micros, state, created_at, updated_at, beneficiary)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'created', $10, $10, $13::jsonb)
     ON CONFLICT (partner_id, idempotency_key) DO NOTHING
     RETURNING *),
   held AS (
     UPDATE accounts SET available_micros = available_micros + $14::bigint, held_micros = held_micros + $15::bigint, updated_at = $10
     WHERE partner_id = $1 AND document = $2 AND EXISTS (SELECT 1 FROM w) AND NOT EXISTS (SELECT 1 FROM kept_refusal)
     RETURNING 1),
   ledger AS (
     INSERT INTO ledger_entries (partner_id, document, reason, available_delta, held_delta, withdrawal_id, created_at)
     SELECT $1, $2, 'withdrawal_hold', $14::bigint, $15::bigint, w.id, $10 FROM w, held
     RETURNING 1)`,
  events: {
    topic: Topics.WithdrawalStateChanged,
    from: 'w, held',
    key: `$16::text || w.id::text || $17::text`,
    payload: `jsonb_set(jsonb_set($11::jsonb, '{resource_id}', to_jsonb(w.id::text)), '{resource,id}', to_jsonb(w.id))`,
  },
  select: `SELECT w.*,
          CASE WHEN EXISTS (SELECT 1 FROM kept_refusal) THEN refuse('${REFUSED.refused_before}')
               WHEN w.id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM held) THEN refuse('${REFUSED.not_found}')
          END AS refused
   FROM (SELECT 1) AS one LEFT JOIN w ON true`,
});

/**
 * $11 and $16, $17 of CREATE_HELD: the `created` event as `created` builds it for PENDING_ID, its key split
 * around that id. Throws when the statement could not set the id in it where the builder put it.
 */
function pendingEvent(event: OutboxMessage<typeof Topics.WithdrawalStateChanged>): [payload: string, keyBefore: string, keyAfter: string] {
  const keyParts = event.key.split(String(PENDING_ID));
  const { payload } = event;
  if (keyParts.length !== 2 || payload.resource_id !== String(PENDING_ID) || payload.resource.id !== PENDING_ID)
    throw new Error(`the created event does not carry the withdrawal's id where CREATE_HELD sets it: ${event.key}`);
  return [JSON.stringify(payload), keyParts[0], keyParts[1]];
}

/** $1..$10 of the withdrawal's INSERT, in CREATE_HELD and INSERT_CREATED alike. */
const insertValues = (data: NewWithdrawal, now: Date): unknown[] => [
  data.partnerId,
  data.document,
  data.idempotencyKey,
  data.fingerprint,
  data.address,
  data.network,
  data.feeChoice,
  data.amountMicros.toString(),
  data.feeMicros.toString(),
  now,
];

/** The beneficiary as its jsonb column takes it (null: none). */
const beneficiaryValue = (data: NewWithdrawal): string | null => (data.beneficiary ? JSON.stringify(data.beneficiary) : null);

const FIND_BY_KEY = statement('withdrawal_by_key', 'SELECT * FROM withdrawals WHERE partner_id = $1 AND idempotency_key = $2');

/** The withdrawal, `created`, unless its idempotency key holds one (then nothing). */
const INSERT_CREATED = statement(
  'withdrawal_insert_created',
  `INSERT INTO withdrawals (partner_id, document, idempotency_key, fingerprint, address, network, fee_choice,
                            amount_micros, fee_micros, state, created_at, updated_at, beneficiary)
   VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $11, $10, $10, $12::jsonb)
   ON CONFLICT (partner_id, idempotency_key) DO NOTHING RETURNING *`,
);
const REFUSED_BEFORE = statement('withdrawal_refused_before', 'SELECT 1 FROM refused_commands WHERE command_id = $1 AND partner_id = $2');

/** By id within the partner. The id is compared as bigint: a path id past the column's int range is simply not found. */
const FIND_BY_ID = statement('withdrawal_by_id', 'SELECT * FROM withdrawals WHERE partner_id = $1 AND id = $2::bigint');

/**
 * The Withdrawal aggregate's storage. Hot paths run prepared statements inside a UnitOfWork transaction;
 * every lookup a partner can cause is scoped by partner.
 */
@Injectable()
export class WithdrawalRepository {
  constructor(private readonly db: Database) {}

  /** `tx`: read in that transaction (after its locks), else as committed now. */
  async findByIdempotencyKey(partnerId: PartnerId, idempotencyKey: string, tx?: Transaction): Promise<Withdrawal | null> {
    const { rows } = await (tx ?? this.db).query<WithdrawalRow>(FIND_BY_KEY, [partnerId, idempotencyKey]);
    return rows[0] ? toWithdrawal(rows[0]) : null;
  }

  /** The partner's withdrawal `id`, as committed now; null when the partner has none with that id (another partner's included). */
  async findById(partnerId: PartnerId, id: number): Promise<Withdrawal | null> {
    const { rows } = await this.db.query<WithdrawalRow>(FIND_BY_ID, [partnerId, id]);
    return rows[0] ? toWithdrawal(rows[0]) : null;
  }

  /**
   * One page of the partner's withdrawals, newest first (created_at, then id), by keyset: the indexes of
   * migration `withdrawal_list_indexes` ((partner_id, created_at, id), and with document or state first).
   */
  async list(partnerId: PartnerId, filter: KeysetFilter, page: PageRequest): Promise<Withdrawal[]> {
    const { statement: s, values } = keysetPageStatement('withdrawal_list', 'withdrawals', 'bigint', partnerId, filter, page);
    const { rows } = await this.db.query<WithdrawalRow>(s, values);
    return rows.map(toWithdrawal);
  }

  /** Inserts it in `state` (`created`, or `pending_approval`) in `tx` (the caller holds and reports it); null when its key holds one. */
  async insertCreated(
    tx: Transaction,
    data: NewWithdrawal,
    now: Date,
    state: Extract<WithdrawalState, 'created' | 'pending_approval'> = 'created',
  ): Promise<Withdrawal | null> {
    const { rows } = await tx.query<WithdrawalRow>(INSERT_CREATED, [...insertValues(data, now), state, beneficiaryValue(data)]);
    return rows[0] ? toWithdrawal(rows[0]) : null;
  }

  /** Whether this very command (its command id) was refused before (refused_commands). */
  async refusedBefore(tx: Transaction, partnerId: PartnerId, commandId: string): Promise<boolean> {
    return (await tx.query(REFUSED_BEFORE, [commandId, partnerId])).rows.length > 0;
  }

  /**
   * Inserts in state `created`, holds amount + fee on the user's account (the move of hold-rule.ts; a balance
   * short of it is 'insufficient') and writes the `created` event (`created(withdrawal)` builds it, key and
   * payload, the statement sets the new id in it), all in one statement (see CREATE_HELD).
   * `commandId`: the command's own id (commandIdOf), whose refusal, if one was kept, refuses it again.
   */
  async createHeld(
    work: UnitOfWork,
    data: NewWithdrawal,
    now: Date,
    created: (w: Withdrawal) => OutboxMessage<typeof Topics.WithdrawalStateChanged>,
    commandId: string | null = null,
  ): Promise<CreateOutcome> {
    // The event as the builder makes it, for an id the statement sets: every other field is known here.
    const [payload, keyBefore, keyAfter] = pendingEvent(created(createdWithdrawal(data, PENDING_ID, now)));
    const move = holdMove(data.amountMicros, data.feeMicros);
    let row: WithdrawalRow & { id: number | null };
    try {
      [row] = await work.runCommand<WithdrawalRow & { id: number | null }>(CREATE_HELD, [
        ...insertValues(data, now),
        payload,
        commandId,
        beneficiaryValue(data),
        move.availableDelta.toString(),
        move.heldDelta.toString(),
        keyBefore,
        keyAfter,
      ]);
    } catch (error) {
      if (violatedConstraint(error) === NO_OVERDRAFT) return 'insufficient';
      const reason = statementRefusal(error, Object.values(REFUSED));
      if (reason) return OUTCOME_OF_REASON[reason];
      throw error;
    }
    return row.id === null ? 'duplicate' : { created: toWithdrawal(row) };
  }
}
