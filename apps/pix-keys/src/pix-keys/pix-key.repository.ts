import { Injectable } from '@nestjs/common';
import { authenticatedPartnerId, PageRequest, PartnerId, PixKeyAnswer, PixKeyState } from '@partner/contracts';
import { Database, KeysetFilter, keysetPageStatement, statement, Transaction } from '@partner/db';
import { IdempotencyRecord, IdempotencyRow, toIdempotencyRecord } from './idempotency-record.repository';

export interface PixKey {
  id: string;
  partnerId: PartnerId;
  document: string;
  key: string;
  state: PixKeyState;
  failureReason: string | null;
  deletionRequestedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** A row of `pix_keys` as the driver returns it. */
export interface PixKeyRow {
  id: string;
  partner_id: string;
  document: string;
  key: string;
  state: PixKeyState;
  failure_reason: string | null;
  deletion_requested_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** A row parsed into the aggregate, field by field. Its partner id is one a PartnerId was stored as (every write takes one). */
export const toPixKey = (r: PixKeyRow): PixKey => ({
  id: r.id,
  partnerId: authenticatedPartnerId(r.partner_id),
  document: r.document,
  key: r.key,
  state: r.state,
  failureReason: r.failure_reason,
  deletionRequestedAt: r.deletion_requested_at,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** A row of a LEFT JOIN whose right side may be missing. */
type Nullable<T> = { [K in keyof T]: T[K] | null };

/**
 * The key's columns of a claiming statement's row, once its key is known to be there (a non-null id: the
 * LEFT JOIN matched). Checked column by column rather than cast, so a missing one fails loudly.
 */
function presentKey(r: Nullable<PixKeyRow>): PixKeyRow {
  const { id, partner_id, document, key, state, failure_reason, deletion_requested_at, created_at, updated_at } = r;
  if (
    id === null ||
    partner_id === null ||
    document === null ||
    key === null ||
    state === null ||
    created_at === null ||
    updated_at === null
  ) {
    throw new Error(`pix key row ${id} is missing a column its table declares NOT NULL`);
  }
  return { id, partner_id, document, key, state, failure_reason, deletion_requested_at, created_at, updated_at };
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
 * key only if the claim is ours and the user exists. Both inserts are ON CONFLICT DO NOTHING: a
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
     SELECT 1 FROM users WHERE partner_id = $1 AND document = $3),
   created AS (
     INSERT INTO pix_keys (id, partner_id, document, key, state)
     SELECT $5::uuid, $1::uuid, $3::bpchar, $3::bpchar, 'pending' WHERE EXISTS (SELECT 1 FROM claim) AND EXISTS (SELECT 1 FROM owner)
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
 * The simulated DICT's answers, a batch of each kind per statement: due registrations (`pending` →
 * `registered`, or `failed` for the refused CPFs), deletions asked for while pending of keys now
 * registered (→ `deleting`, no delay), and due deletions (`deleting` → `canceled`). Each kind claims
 * its rows with SKIP LOCKED, so several instances share the work without waiting on each other, and
 * moves them only if still in the state they were due in, so no move is made twice. A row is in one
 * state in the statement's snapshot, so no row is updated by two of the CTEs.
 */
const ADVANCE_DUE = statement(
  'pix_keys_advance_due',
  `WITH answered AS (
     UPDATE pix_keys
     SET state = CASE WHEN document = ANY($3::bpchar[]) THEN 'failed' ELSE 'registered' END,
         failure_reason = CASE WHEN document = ANY($3::bpchar[]) THEN $4 END,
         updated_at = $5
     WHERE id = ANY(ARRAY(SELECT id FROM pix_keys WHERE state = 'pending' AND updated_at <= $1
                  ORDER BY updated_at LIMIT $2 FOR UPDATE SKIP LOCKED))
       AND state = 'pending'
     RETURNING *),
   deleting AS (
     UPDATE pix_keys SET state = 'deleting', updated_at = $5
     WHERE id = ANY(ARRAY(SELECT id FROM pix_keys WHERE state = 'registered' AND deletion_requested_at IS NOT NULL
                  ORDER BY updated_at LIMIT $2 FOR UPDATE SKIP LOCKED))
       AND state = 'registered'
     RETURNING *),
   canceled AS (
     UPDATE pix_keys SET state = 'canceled', updated_at = $5
     WHERE id = ANY(ARRAY(SELECT id FROM pix_keys WHERE state = 'deleting' AND updated_at <= $1
                  ORDER BY updated_at LIMIT $2 FOR UPDATE SKIP LOCKED))
       AND state = 'deleting'
     RETURNING *)
   SELECT * FROM answered UNION ALL SELECT * FROM deleting UNION ALL SELECT * FROM canceled`,
);

/**
 * The PixKey aggregate's storage: prepared statements, run inside a UnitOfWork transaction for commands. Every
 * method a partner's request can reach takes the partner; the DICT's batch is the one system process
 * serving every partner, and each key it moves carries its partner into its event.
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
   * Claims `claim` for the creation of a `pending` CPF key with id `id` and creates it (see
   * CREATE_CLAIMED). Answers the key, or why there is none; the caller rolls back unless created.
   */
  async createClaimed(tx: Transaction, partnerId: PartnerId, document: string, claim: Claim, id: string): Promise<CreateOutcome> {
    const {
      rows: [row],
    } = await tx.query<Nullable<PixKeyRow> & PreviousRow & { claimed: boolean; user_exists: boolean }>(CREATE_CLAIMED, [
      partnerId,
      claim.idempotencyKey,
      document,
      claim.fingerprint,
      id,
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
    patch: { failureReason?: string; deletionRequestedAt?: Date } = {},
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

  /**
   * Makes the DICT's answers due at `before`, up to `limit` of each kind, in one statement (see
   * ADVANCE_DUE). `refused` are the CPFs whose registration fails with `refusal`.
   */
  async advanceDue(tx: Transaction, before: Date, limit: number, refused: string[], refusal: string, now: Date): Promise<PixKey[]> {
    return (await tx.query<PixKeyRow>(ADVANCE_DUE, [before, limit, refused, refusal, now])).rows.map(toPixKey);
  }
}
