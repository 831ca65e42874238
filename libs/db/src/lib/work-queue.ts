import type { QueryResultRow } from 'pg';
import { Queryable, Statement, statement } from './unit-of-work';

/**
 * Which table a queue works on, and which of its rows have work to do. The rows are the domain's own (a Pix
 * key, a notification, a refund): the queue adds three columns' meaning to them, never a table of its own.
 */
export interface WorkQueueTable {
  /** Prefix of the queue's prepared statements' names (unique in the service). */
  name: string;
  table: string;
  /** SQL condition on the table's columns: the rows that have work to do (e.g. `state IN ('pending', 'deleting')`). */
  workable: string;
  /**
   * The attempts counter, the due time (NULL: due now) and the last failure's text; defaults `attempts`,
   * `next_attempt_at`, `last_error`. `lastError: null`: the table keeps no failure text (retryLater drops it).
   */
  columns?: Partial<Record<'attempts' | 'dueAt', string>> & { lastError?: string | null };
  /** Orders rows due at the same time (default `id`). */
  tieBreak?: string;
  /**
   * What a claim answers: a SELECT over `claimed` (the claimed rows, every column), e.g. to join what the work
   * needs. Default `SELECT * FROM claimed`.
   */
  project?: string;
}

/** The attempt that holds a row: its id and the attempt number its claim gave it. A later claim of the row supersedes it. */
export interface HeldRow {
  id: bigint | string | number;
  attempts: number;
}

/**
 * The one mechanism for background work here (docs/architecture.md, "Background work"): the domain's rows are
 * the queue. What it promises, and what it asks of the work:
 *
 * - **Claim.** `claim` takes up to `limit` rows that are workable and due, oldest due first, with SKIP LOCKED:
 *   instances share a queue without waiting on each other and never claim one row together. Claiming counts
 *   the attempt (before the work, so an attempt that dies is still counted) and leases the row: its due time
 *   moves to the end of the lease, so no one takes it meanwhile.
 * - **Settle.** The work's outcome is written while the row is still the attempt's: a statement guarded by
 *   `heldBy` (same attempt number, still workable), in one transaction with the event that reports it. An
 *   attempt that outlived its lease, whose row was claimed again since, changes nothing. `retryLater` is the
 *   outcome "not done": due again at a time `retryDelayMs` (libs/runtime) decides, with the failure's text.
 * - **At least once.** A process that dies mid-attempt leaves its row leased; once the lease is over the row
 *   is claimed again and the work done again. So the work must be safe to repeat: the counterparty's
 *   idempotency (DICT's RequestId, the Pix provider's refund id read back before it is asked, an e-mail's
 *   Message-ID), or a guard in the settling statement. A lease must outlast the longest attempt it covers.
 */
export class WorkQueue {
  private readonly attempts: string;
  private readonly dueAt: string;
  /** Null when the table keeps no failure text. */
  private readonly lastError: string | null;
  private readonly workable: string;
  private readonly claimStatement: Statement;
  private readonly retryStatement: Statement;

  constructor(spec: WorkQueueTable) {
    this.workable = spec.workable;
    this.attempts = spec.columns?.attempts ?? 'attempts';
    this.dueAt = spec.columns?.dueAt ?? 'next_attempt_at';
    this.lastError = spec.columns?.lastError === undefined ? 'last_error' : spec.columns.lastError;
    const { attempts, dueAt } = this;
    const { table } = spec;
    this.claimStatement = statement(
      `${spec.name}_claim`,
      `WITH due AS (
         SELECT id FROM ${table}
         WHERE (${spec.workable}) AND (${dueAt} IS NULL OR ${dueAt} <= $1)
         ORDER BY ${dueAt} NULLS FIRST, ${spec.tieBreak ?? 'id'} LIMIT $3
         FOR UPDATE SKIP LOCKED),
       claimed AS (
         UPDATE ${table} t SET ${attempts} = t.${attempts} + 1, ${dueAt} = $2
         FROM due WHERE t.id = due.id AND (${spec.workable})
         RETURNING t.*)
       ${spec.project ?? 'SELECT * FROM claimed'}`,
    );
    this.retryStatement = statement(
      `${spec.name}_retry_later`,
      `UPDATE ${table} SET ${dueAt} = $3${this.lastError === null ? '' : `, ${this.lastError} = $4`} WHERE ${this.heldBy(1, 2)}`,
    );
  }

  /** Claims up to `limit` rows due at `now`, each one attempt more, leased until `leaseUntil`. */
  async claim<R extends QueryResultRow>(db: Queryable, now: Date, leaseUntil: Date, limit: number): Promise<R[]> {
    const { rows } = await db.query<R>(this.claimStatement, [now, leaseUntil, limit]);
    return rows;
  }

  /**
   * The attempt did not do the work: due again at `at`, `error` kept (an errorText; dropped when the table keeps
   * no failure text). False when the row is no longer the attempt's.
   */
  async retryLater(db: Queryable, held: HeldRow, at: Date, error: string): Promise<boolean> {
    const values = [held.id.toString(), held.attempts, at, ...(this.lastError === null ? [] : [error])];
    const { rowCount } = await db.query(this.retryStatement, values);
    return rowCount === 1;
  }

  /**
   * The SQL condition of a settling statement: the row is still the attempt's (`$idParam` its id,
   * `$attemptsParam` its attempt number) and still has work to do.
   */
  heldBy(idParam: number, attemptsParam: number): string {
    return `id = $${idParam} AND ${this.attempts} = $${attemptsParam} AND (${this.workable})`;
  }

  /** SQL assignments that empty a row's queue state (its work done, or started afresh). */
  get cleared(): string {
    return `${this.attempts} = 0, ${this.dueAt} = NULL${this.lastError === null ? '' : `, ${this.lastError} = NULL`}`;
  }
}
