import { Injectable } from '@nestjs/common';
import {
  ACCOUNT_TYPES,
  AccountType,
  authenticatedPartnerId,
  PageRequest,
  PartnerId,
  PIX_KEY_FAILURE_REASONS,
  PIX_KEY_TYPES,
  PixKeyAnswer,
  PixKeyFailureReason,
  PixKeyState,
  PixKeyType,
} from '@partner/contracts';
import { Database, KeysetFilter, keysetPageStatement, statement, Transaction, WorkQueue } from '@partner/db';
import { errorText } from '@partner/tracing';
import { DICT_QUEUE_COLUMNS } from '../dict/dict-queue';
import { IdempotencyRecord, IdempotencyRow, toIdempotencyRecord } from './idempotency-record.repository';

/** A user's payment account at the operator, as copied onto the key when it was asked for. */
export interface HolderAccount {
  ispb: string;
  branch: string;
  number: string;
  type: AccountType;
  openedAt: Date;
}

export interface PixKey {
  id: string;
  partnerId: PartnerId;
  document: string;
  keyType: PixKeyType;
  /** The CPF for a CPF key; for an EVP key, the UUID DICT generated, null until DICT answered its registration. */
  key: string | null;
  state: PixKeyState;
  failureReason: PixKeyFailureReason | null;
  deletionRequestedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
  /** The holder's name and account sent to DICT (the user's when the key was asked for); null when the user had none. */
  holderName: string | null;
  account: HolderAccount | null;
  /** The partner asked for the CPF's portability should DICT hold it at another institution (a claim, this operator the claimer). */
  claimPortability: boolean;
  /** DICT's RequestId of the registration (or of the claimed key's completion), the same on every retry. */
  dictRequestId: string;
  /** The DICT queue (DICT_QUEUE): calls made for the current registration or deletion, the next one's time, the last failure. */
  dictAttempts: number;
  dictNextAttemptAt: Date | null;
  dictLastError: string | null;
  /** The reconciliation: when DICT's entry was last read back, and what differed (null: it matched). */
  dictCheckedAt: Date | null;
  dictMismatch: string | null;
}

/** A row of `pix_keys` as the driver returns it. */
export interface PixKeyRow {
  id: string;
  partner_id: string;
  document: string;
  key_type: string;
  key: string | null;
  state: PixKeyState;
  failure_reason: string | null;
  deletion_requested_at: Date | null;
  created_at: Date;
  updated_at: Date;
  holder_name: string | null;
  account_ispb: string | null;
  account_branch: string | null;
  account_number: string | null;
  account_type: string | null;
  account_opened_at: Date | null;
  claim_portability: boolean;
  dict_request_id: string;
  dict_attempts: number;
  dict_next_attempt_at: Date | null;
  dict_last_error: string | null;
  dict_checked_at: Date | null;
  dict_mismatch: string | null;
}

const isAccountType = (t: string): t is AccountType => (ACCOUNT_TYPES as readonly string[]).includes(t);
const isKeyType = (t: string): t is PixKeyType => (PIX_KEY_TYPES as readonly string[]).includes(t);
const isFailureReason = (r: string): r is PixKeyFailureReason => (PIX_KEY_FAILURE_REASONS as readonly string[]).includes(r);

function keyTypeOf(t: string): PixKeyType {
  if (!isKeyType(t)) throw new Error(`pix key key_type ${t} is none of PIX_KEY_TYPES`);
  return t;
}

function failureReasonOf(r: string | null): PixKeyFailureReason | null {
  if (r === null) return null;
  if (!isFailureReason(r)) throw new Error(`pix key failure_reason ${r} is none of PIX_KEY_FAILURE_REASONS`);
  return r;
}

/** The account columns of a row (of `pix_keys` or `users`) as one account, or null unless every one is there. */
export function accountOf(r: {
  account_ispb: string | null;
  account_branch: string | null;
  account_number: string | null;
  account_type: string | null;
  account_opened_at: Date | null;
}): HolderAccount | null {
  const { account_ispb: ispb, account_branch: branch, account_number: number, account_type: type, account_opened_at: openedAt } = r;
  if (ispb === null || branch === null || number === null || type === null || openedAt === null || !isAccountType(type)) return null;
  return { ispb, branch, number, type, openedAt };
}

/** A row parsed into the aggregate, field by field. Its partner id is one a PartnerId was stored as (every write takes one). */
export const toPixKey = (r: PixKeyRow): PixKey => ({
  id: r.id,
  partnerId: authenticatedPartnerId(r.partner_id),
  document: r.document,
  keyType: keyTypeOf(r.key_type),
  key: r.key,
  state: r.state,
  failureReason: failureReasonOf(r.failure_reason),
  deletionRequestedAt: r.deletion_requested_at,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  holderName: r.holder_name,
  account: accountOf(r),
  claimPortability: r.claim_portability,
  dictRequestId: r.dict_request_id,
  dictAttempts: r.dict_attempts,
  dictNextAttemptAt: r.dict_next_attempt_at,
  dictLastError: r.dict_last_error,
  dictCheckedAt: r.dict_checked_at,
  dictMismatch: r.dict_mismatch,
});

/** A row of a LEFT JOIN whose right side may be missing. */
type Nullable<T> = { [K in keyof T]: T[K] | null };

/** The columns of `pix_keys` its table declares NOT NULL. */
const NOT_NULL_COLUMNS = [
  'id',
  'partner_id',
  'document',
  'key_type',
  'state',
  'created_at',
  'updated_at',
  'dict_request_id',
  'dict_attempts',
  'claim_portability',
] as const;

/**
 * The key's columns of a claiming statement's row, once its key is known to be there (a non-null id: the
 * LEFT JOIN matched). Checked column by column rather than cast, so a missing one fails loudly.
 */
function presentKey(r: Nullable<PixKeyRow>): PixKeyRow {
  const missing = NOT_NULL_COLUMNS.filter((c) => r[c] === null || r[c] === undefined);
  const { id, partner_id, document, key_type, state, created_at, updated_at, dict_request_id, dict_attempts, claim_portability } = r;
  if (
    missing.length > 0 ||
    id === null ||
    partner_id === null ||
    document === null ||
    key_type === null ||
    state === null ||
    created_at === null ||
    updated_at === null ||
    dict_request_id === null ||
    dict_attempts === null ||
    claim_portability === null
  ) {
    throw new Error(`pix key row ${r.id} is missing ${missing.join(', ')}, which its table declares NOT NULL`);
  }
  return {
    id,
    partner_id,
    document,
    key_type,
    key: r.key,
    state,
    failure_reason: r.failure_reason,
    deletion_requested_at: r.deletion_requested_at,
    created_at,
    updated_at,
    holder_name: r.holder_name,
    account_ispb: r.account_ispb,
    account_branch: r.account_branch,
    account_number: r.account_number,
    account_type: r.account_type,
    account_opened_at: r.account_opened_at,
    claim_portability,
    dict_request_id,
    dict_attempts,
    dict_next_attempt_at: r.dict_next_attempt_at,
    dict_last_error: r.dict_last_error,
    dict_checked_at: r.dict_checked_at,
    dict_mismatch: r.dict_mismatch,
  };
}

/** The idempotency key a command claims, with the fingerprint of its request. */
export interface Claim {
  idempotencyKey: string;
  fingerprint: string;
}

/** What a claiming statement found when the key was not ours: the record that has it, if this statement's snapshot shows it. */
export interface Taken {
  taken: IdempotencyRecord | null;
}

export type CreateOutcome = { created: PixKey } | Taken | 'user_not_found' | 'already_exists';
export type DeleteOutcome = { answer: PixKeyAnswer; moved: PixKey | null } | Taken | 'not_found' | 'superseded';

/** The previous record's columns, joined to a claiming statement's result (null when the claim is ours). */
const PREVIOUS_COLUMNS = `p.operation AS p_operation, p.document AS p_document, p.fingerprint AS p_fingerprint,
       p.answer AS p_answer, p.pix_key_id AS p_pix_key_id`;

type PreviousRow = { [K in keyof IdempotencyRow as `p_${K}`]: IdempotencyRow[K] | null };

function previousOf(partnerId: PartnerId, idempotencyKey: string, r: PreviousRow): IdempotencyRecord | null {
  if (r.p_operation === null) return null;
  return toIdempotencyRecord({
    partner_id: partnerId,
    idempotency_key: idempotencyKey,
    operation: r.p_operation,
    document: r.p_document ?? '',
    fingerprint: r.p_fingerprint ?? '',
    answer: r.p_answer,
    pix_key_id: r.p_pix_key_id,
  });
}

/** The states of an active key: those of the partial unique index `pix_keys_one_active_per_user`. */
const ACTIVE = `('pending', 'registered', 'deleting')`;

/**
 * The user's current key first: the active one (at most one, by that index), else the latest that ended.
 * What DELETE acts on and GET answers, so both always mean the same key.
 */
const CURRENT_FIRST = `ORDER BY state IN ${ACTIVE} DESC, created_at DESC, id DESC`;

/**
 * A creation in one statement, one round trip: claims the idempotency key (recording its answer at
 * once, as the key is only kept if the creation succeeds), checks the user, and inserts the `pending`
 * key only if the claim is ours and the user exists, with the user's holder name and account as they
 * are now (what DICT will be sent, on every retry alike) and DICT's RequestId for its registration; a CPF key's
 * value is the CPF, an EVP key's is null until DICT generates it ($8, the key's type). A name
 * the request gives ($7) is the key's holder name and replaces the user's (`named`). Both inserts are ON CONFLICT DO NOTHING: a
 * concurrent duplicate of the key waits on the primary key of `idempotency_records`, a concurrent
 * creation for the same user on the partial unique index of active keys, and each then yields to the
 * transaction that committed. The caller rolls back unless a key was created (data-modifying CTEs
 * always run, so the claim must be undone: a refused request binds no key).
 *
 * The previous record is joined for the replay of a key committed before this statement started; one
 * committed while it waited is not in its snapshot, and is read afterwards.
 */
const CREATE_CLAIMED = statement(
  'pix_keys_create_claimed',
  `WITH claim AS (
     INSERT INTO idempotency_records (partner_id, idempotency_key, operation, document, fingerprint, answer, pix_key_id)
     VALUES ($1, $2, 'create', $3, $4, 'accepted', $5)
     ON CONFLICT (partner_id, idempotency_key) DO NOTHING
     RETURNING 1),
   owner AS (
     SELECT name, account_ispb, account_branch, account_number, account_type, account_opened_at
     FROM users WHERE partner_id = $1 AND document = $3),
   named AS (
     UPDATE users SET name = $7 WHERE partner_id = $1 AND document = $3 AND $7::text IS NOT NULL
       AND name IS DISTINCT FROM $7 AND EXISTS (SELECT 1 FROM claim)),
   created AS (
     INSERT INTO pix_keys (id, partner_id, document, key_type, key, state, dict_request_id, claim_portability,
                           holder_name, account_ispb, account_branch, account_number, account_type, account_opened_at)
     SELECT $5::uuid, $1::uuid, $3::bpchar, $8::text, CASE WHEN $8::text = 'cpf' THEN $3::text END, 'pending', $6::uuid, $9::boolean,
            COALESCE($7::text, o.name), o.account_ispb, o.account_branch, o.account_number, o.account_type, o.account_opened_at
     FROM owner o WHERE EXISTS (SELECT 1 FROM claim)
     ON CONFLICT (partner_id, document) WHERE state IN ${ACTIVE} DO NOTHING
     RETURNING *)
   SELECT EXISTS (SELECT 1 FROM claim) AS claimed, EXISTS (SELECT 1 FROM owner) AS user_exists, c.*, ${PREVIOUS_COLUMNS}
   FROM (SELECT 1) AS one
   LEFT JOIN created c ON true
   LEFT JOIN idempotency_records p ON p.partner_id = $1 AND p.idempotency_key = $2`,
);

/**
 * A deletion in one statement, one round trip. It decides on the user's current key as this statement
 * sees it (the active one, else the latest): `accepted` for a pending or registered key not yet asked
 * to go, `already_sent` for one deleting or already asked, `succeeded` for a canceled one, nothing
 * (not_found) otherwise. It claims the idempotency key with that answer, then, only if the claim is
 * ours and the answer is `accepted`, moves the key with a guarded UPDATE: a registered key to
 * `deleting`, a pending one marked for deletion once registered. The UPDATE locks the row and
 * re-checks its guard on the latest version, so a move another transaction made meanwhile (a parallel
 * deletion, the DICT) makes it update nothing: the decision was taken on a stale view and the caller
 * rolls back and decides again (`superseded`). A key the DICT registered meanwhile still matches and
 * goes straight to `deleting` (the CASEs read the latest version). Answers that change no key are
 * those of the state the statement saw. Claim first, then key: the lock order of every Pix key command.
 */
const DELETE_CLAIMED = statement(
  'pix_keys_delete_claimed',
  `WITH current AS (
     SELECT id, state, deletion_requested_at FROM pix_keys
     WHERE partner_id = $1 AND document = $3
     ${CURRENT_FIRST}
     LIMIT 1),
   decision AS (
     SELECT id, CASE WHEN state IN ('pending', 'registered') AND deletion_requested_at IS NULL THEN 'accepted'
                     WHEN state IN ${ACTIVE} THEN 'already_sent'
                     WHEN state = 'canceled' THEN 'succeeded' END AS answer
     FROM current),
   claim AS (
     INSERT INTO idempotency_records (partner_id, idempotency_key, operation, document, fingerprint, answer, pix_key_id)
     SELECT $1::uuid, $2::uuid, 'delete', $3::bpchar, $4::bpchar, d.answer, d.id FROM (SELECT 1) AS one LEFT JOIN decision d ON true
     ON CONFLICT (partner_id, idempotency_key) DO NOTHING
     RETURNING answer, pix_key_id),
   moved AS (
     UPDATE pix_keys
     SET state = CASE WHEN state = 'registered' THEN 'deleting' ELSE state END,
         updated_at = CASE WHEN state = 'registered' THEN $5 ELSE updated_at END,
         deletion_requested_at = $5
     WHERE id = (SELECT pix_key_id FROM claim WHERE answer = 'accepted') AND partner_id = $1
       AND state IN ('pending', 'registered') AND deletion_requested_at IS NULL
     RETURNING *)
   SELECT EXISTS (SELECT 1 FROM claim) AS claimed, (SELECT answer FROM claim) AS answer, m.*, ${PREVIOUS_COLUMNS}
   FROM (SELECT 1) AS one
   LEFT JOIN moved m ON true
   LEFT JOIN idempotency_records p ON p.partner_id = $1 AND p.idempotency_key = $2`,
);

/** The user's current key (see CURRENT_FIRST), by the index on (partner_id, document, created_at). */
const FIND_CURRENT = statement(
  'pix_keys_find_current',
  `SELECT * FROM pix_keys WHERE partner_id = $1 AND document = $2 ${CURRENT_FIRST} LIMIT 1`,
);

/** One move of one key, if it is still in `from` (the row is locked by the UPDATE, the guard re-checked on its latest version). */
const TRANSITION = statement(
  'pix_keys_transition',
  `UPDATE pix_keys SET state = $4, updated_at = $5,
          failure_reason = COALESCE($6, failure_reason), deletion_requested_at = COALESCE($7, deletion_requested_at)
   WHERE id = $2 AND partner_id = $1 AND state = $3
   RETURNING *`,
);

/**
 * The DICT queue (a WorkQueue, libs/db: claim, lease, settle, at least once): the keys whose DICT call is owed, a
 * `pending` key's registration or a `deleting` key's deletion, oldest due first.
 */
const DICT_QUEUE = new WorkQueue({
  name: 'pix_keys_dict',
  table: 'pix_keys',
  workable: `state IN ('pending', 'deleting')`,
  columns: DICT_QUEUE_COLUMNS,
  tieBreak: 'updated_at',
});

/**
 * DICT's final answer to a key's registration or deletion: the move from `$3` to `$4` (with the failure's
 * reason), the queue emptied for the key, a registered key counted as checked now, an EVP key given the value
 * DICT generated ($7; a key already known keeps its value). Guarded by the state the call was made in, not by
 * the attempt (heldBy): DICT's answer is the same whichever attempt has it, and a move already made (by another
 * instance whose lease ran out) is not made twice.
 */
const FINISH = statement(
  'pix_keys_dict_finish',
  `UPDATE pix_keys SET state = $4, updated_at = $5, failure_reason = $6, key = COALESCE(key, $7),
          ${DICT_QUEUE.cleared},
          dict_checked_at = CASE WHEN $4 = 'registered' THEN $5 ELSE dict_checked_at END
   WHERE id = $2 AND partner_id = $1 AND state = $3
   RETURNING *`,
);

/** A registered key whose deletion was asked for while it was pending: to `deleting`, its deletion due at once. */
const DELETE_MARKED = statement(
  'pix_keys_dict_delete_marked',
  `UPDATE pix_keys SET state = 'deleting', updated_at = $3, ${DICT_QUEUE.cleared}
   WHERE id = $2 AND partner_id = $1 AND state = 'registered' AND deletion_requested_at IS NOT NULL
   RETURNING *`,
);

/** Registrations and deletions waiting for another attempt after a failed one. */
const RETRYING = statement(
  'pix_keys_dict_retrying',
  `SELECT count(*)::int AS retrying FROM pix_keys WHERE state IN ('pending', 'deleting') AND dict_last_error IS NOT NULL`,
);

/**
 * The reconciliation's claim: registered keys not read back from DICT since `$1` (never first), marked as
 * checked now (`$3`) so that no other instance reads them in this round.
 */
const CLAIM_RECONCILIATION = statement(
  'pix_keys_claim_reconciliation',
  `UPDATE pix_keys SET dict_checked_at = $3
   WHERE id = ANY(ARRAY(SELECT id FROM pix_keys
                        WHERE state = 'registered' AND (dict_checked_at IS NULL OR dict_checked_at <= $1)
                        ORDER BY dict_checked_at NULLS FIRST, updated_at LIMIT $2 FOR UPDATE SKIP LOCKED))
     AND state = 'registered'
   RETURNING *`,
);

/** The key DICT holds at this operator under `$1` (registered, or being deleted): the one a claim of that key claims. */
const FIND_HELD = statement('pix_keys_find_held', `SELECT * FROM pix_keys WHERE key = $1 AND state IN ('registered', 'deleting') LIMIT 1`);

/** The pending key whose portability this operator claims under `$1` (a claim the listing finds before its row). */
const FIND_CLAIMING = statement(
  'pix_keys_find_claiming',
  `SELECT * FROM pix_keys WHERE key = $1 AND state = 'pending' AND claim_portability LIMIT 1`,
);

/**
 * A pending key whose portability is claimed: out of the registration queue (DICT holds it elsewhere until the
 * claim is completed), its last failure cleared. The claims worker ends it: registered, or failed claim_canceled.
 */
const PARK = statement(
  'pix_keys_park',
  `UPDATE pix_keys SET dict_next_attempt_at = 'infinity', dict_last_error = NULL
   WHERE id = $2 AND partner_id = $1 AND state = 'pending'
   RETURNING *`,
);

const FIND_BY_ID = statement('pix_keys_find_by_id', `SELECT * FROM pix_keys WHERE id = $2 AND partner_id = $1`);

/**
 * A key released to a claimer: DICT removed the entry when the claim was confirmed, so the key ends `canceled` here
 * from whichever state it held it in (a deletion asked for meanwhile ends with it), its queue emptied.
 */
const RELEASE = statement(
  'pix_keys_release',
  `UPDATE pix_keys SET state = 'canceled', updated_at = $3, ${DICT_QUEUE.cleared}
   WHERE id = $2 AND partner_id = $1 AND state IN ('registered', 'deleting')
   RETURNING *`,
);

/** What the read back found (null: DICT holds the entry as registered), for a key still registered. */
const RECORD_MISMATCH = statement(
  'pix_keys_record_mismatch',
  `UPDATE pix_keys SET dict_mismatch = $2 WHERE id = $1 AND state = 'registered'`,
);

/**
 * The PixKey aggregate's storage: prepared statements, run inside a UnitOfWork transaction for commands. Every
 * method a partner's request can reach takes the partner; the DICT queue and the reconciliation are the
 * system processes serving every partner, and each key they move carries its partner into its event.
 */
@Injectable()
export class PixKeyRepository {
  constructor(private readonly db: Database) {}

  /** The user's current key as committed now (see CURRENT_FIRST); null when the partner's user never had one. */
  async findCurrent(partnerId: PartnerId, document: string): Promise<PixKey | null> {
    const { rows } = await this.db.query<PixKeyRow>(FIND_CURRENT, [partnerId, document]);
    return rows[0] ? toPixKey(rows[0]) : null;
  }

  /**
   * One page of every key the partner asked for (ended ones included), newest first (created_at, then id),
   * by keyset: the indexes of migration `pix_key_list_indexes` ((partner_id, created_at, id), with state
   * first) and (partner_id, document, created_at) for one user's few keys.
   */
  async list(partnerId: PartnerId, filter: KeysetFilter, page: PageRequest): Promise<PixKey[]> {
    const { statement: s, values } = keysetPageStatement('pix_keys_list', 'pix_keys', 'uuid', partnerId, filter, page);
    const { rows } = await this.db.query<PixKeyRow>(s, values);
    return rows.map(toPixKey);
  }

  /**
   * Claims `claim` for the creation of a `pending` key of `keyType` with id `id` (and DICT's RequestId
   * `dictRequestId`) and creates it (see CREATE_CLAIMED), with `holderName` when given (it also becomes the user's). Answers the key, or why there is none; the caller rolls back unless created.
   */
  async createClaimed(
    tx: Transaction,
    partnerId: PartnerId,
    document: string,
    claim: Claim,
    id: string,
    dictRequestId: string,
    holderName?: string,
    keyType: PixKeyType = 'cpf',
    claimPortability = false,
  ): Promise<CreateOutcome> {
    const {
      rows: [row],
    } = await tx.query<Nullable<PixKeyRow> & PreviousRow & { claimed: boolean; user_exists: boolean }>(CREATE_CLAIMED, [
      partnerId,
      claim.idempotencyKey,
      document,
      claim.fingerprint,
      id,
      dictRequestId,
      holderName ?? null,
      keyType,
      claimPortability,
    ]);
    if (!row.claimed) return { taken: previousOf(partnerId, claim.idempotencyKey, row) };
    if (!row.user_exists) return 'user_not_found';
    if (row.id === null) return 'already_exists';
    return { created: toPixKey(presentKey(row)) };
  }

  /**
   * Claims `claim` for the deletion of the user's key and acts on it (see DELETE_CLAIMED). `moved` is
   * the key when it changed; the caller rolls back on `not_found` and `superseded`.
   */
  async requestDeletionClaimed(tx: Transaction, partnerId: PartnerId, document: string, claim: Claim, now: Date): Promise<DeleteOutcome> {
    const {
      rows: [row],
    } = await tx.query<Nullable<PixKeyRow> & PreviousRow & { claimed: boolean; answer: PixKeyAnswer | null }>(DELETE_CLAIMED, [
      partnerId,
      claim.idempotencyKey,
      document,
      claim.fingerprint,
      now,
    ]);
    if (!row.claimed) return { taken: previousOf(partnerId, claim.idempotencyKey, row) };
    if (row.answer === null) return 'not_found';
    const moved = row.id === null ? null : toPixKey(presentKey(row));
    if (row.answer === 'accepted' && !moved) return 'superseded';
    return { answer: row.answer, moved };
  }

  /**
   * Moves one key from `from` to `to` if it is still in `from`; null when another process got there
   * first. No command needs it (theirs are the statements above); it makes single moves by hand, as
   * the specs do in place of the DICT.
   */
  async transition(
    tx: Transaction,
    partnerId: PartnerId,
    id: string,
    from: PixKeyState,
    to: PixKeyState,
    patch: { failureReason?: PixKeyFailureReason; deletionRequestedAt?: Date } = {},
    now = new Date(),
  ): Promise<PixKey | null> {
    const {
      rows: [row],
    } = await tx.query<PixKeyRow>(TRANSITION, [
      partnerId,
      id,
      from,
      to,
      now,
      patch.failureReason ?? null,
      patch.deletionRequestedAt ?? null,
    ]);
    return row ? toPixKey(row) : null;
  }

  /** Takes up to `limit` keys whose DICT call is due at `now`, each one attempt more, leased until `leaseUntil` (see DICT_QUEUE). */
  async claimDictWork(now: Date, leaseUntil: Date, limit: number): Promise<PixKey[]> {
    return (await DICT_QUEUE.claim<PixKeyRow>(this.db, now, leaseUntil, limit)).map(toPixKey);
  }

  /** DICT's final answer: `key` from `from` to `to` (see FINISH), with the EVP DICT generated; null when it had moved already. */
  async finish(
    tx: Transaction,
    key: PixKey,
    from: PixKeyState,
    to: PixKeyState,
    failureReason: PixKeyFailureReason | null,
    now: Date,
    generatedKey: string | null = null,
  ): Promise<PixKey | null> {
    const {
      rows: [row],
    } = await tx.query<PixKeyRow>(FINISH, [key.partnerId, key.id, from, to, now, failureReason, generatedKey]);
    return row ? toPixKey(row) : null;
  }

  /** A key registered while its deletion was asked for: to `deleting` (see DELETE_MARKED); null unless marked. */
  async deleteMarked(tx: Transaction, key: PixKey, now: Date): Promise<PixKey | null> {
    const {
      rows: [row],
    } = await tx.query<PixKeyRow>(DELETE_MARKED, [key.partnerId, key.id, now]);
    return row ? toPixKey(row) : null;
  }

  /** Another attempt of `key`'s call at `at`, `error` kept masked (errorText), unless another attempt took it meanwhile. */
  async retryLater(key: PixKey, at: Date, error: string): Promise<void> {
    await DICT_QUEUE.retryLater(this.db, { id: key.id, attempts: key.dictAttempts }, at, errorText(error));
  }

  /** How many registrations and deletions wait for another attempt. */
  async retrying(): Promise<number> {
    return (await this.db.query<{ retrying: number }>(RETRYING, [])).rows[0].retrying;
  }

  /** Up to `limit` registered keys last read back before `checkedBefore`, marked checked at `now` (see CLAIM_RECONCILIATION). */
  async claimReconciliation(checkedBefore: Date, limit: number, now: Date): Promise<PixKey[]> {
    return (await this.db.query<PixKeyRow>(CLAIM_RECONCILIATION, [checkedBefore, limit, now])).rows.map(toPixKey);
  }

  /** The key held under `key` at this operator, whichever partner's (a claim names the key only); null when none is. */
  async findHeld(key: string): Promise<PixKey | null> {
    const { rows } = await this.db.query<PixKeyRow>(FIND_HELD, [key]);
    return rows[0] ? toPixKey(rows[0]) : null;
  }

  /** The pending key whose portability is claimed under `key` (see FIND_CLAIMING). */
  async findClaiming(key: string): Promise<PixKey | null> {
    const { rows } = await this.db.query<PixKeyRow>(FIND_CLAIMING, [key]);
    return rows[0] ? toPixKey(rows[0]) : null;
  }

  /** The key out of the registration queue while its portability is claimed (see PARK); null unless still pending. */
  async park(tx: Transaction, partnerId: PartnerId, id: string): Promise<PixKey | null> {
    const { rows } = await tx.query<PixKeyRow>(PARK, [partnerId, id]);
    return rows[0] ? toPixKey(rows[0]) : null;
  }

  async findById(tx: Transaction, partnerId: PartnerId, id: string): Promise<PixKey | null> {
    const { rows } = await tx.query<PixKeyRow>(FIND_BY_ID, [partnerId, id]);
    return rows[0] ? toPixKey(rows[0]) : null;
  }

  /** The key released to a claimer (see RELEASE); null when it had ended already. */
  async release(tx: Transaction, partnerId: PartnerId, id: string, now: Date): Promise<PixKey | null> {
    const { rows } = await tx.query<PixKeyRow>(RELEASE, [partnerId, id, now]);
    return rows[0] ? toPixKey(rows[0]) : null;
  }

  /** What the read back of `key` found (null: the entry matches). */
  async recordMismatch(key: PixKey, mismatch: string | null): Promise<void> {
    await this.db.query(RECORD_MISMATCH, [key.id, mismatch]);
  }
}
