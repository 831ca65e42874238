import { BeforeApplicationShutdown, FactoryProvider, OnApplicationBootstrap } from '@nestjs/common';
import { ErrorCode, PartnerId } from '@partner/contracts';
import { Refusal, RefusalMemory } from './idempotency';
import { HasPool, PooledClass, SqlPool } from './outbox';
import { PeriodicJob, PeriodicJobMetrics } from './periodic-job';
import { statement } from './unit-of-work';

// The table is the service's own `refused_commands` (each service's migration makes it in its schema,
// which its connection's search_path names): command_id, partner_id, idempotency_key, code, message.
const FIND = statement('refused_command_find', 'SELECT code, message FROM refused_commands WHERE command_id = $1 AND partner_id = $2');
const KEEP = statement(
  'refused_command_keep',
  'INSERT INTO refused_commands (command_id, partner_id, idempotency_key, code, message) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (command_id) DO NOTHING',
);

/**
 * The memory runIdempotent consults for one command of a partner's, kept by the command's id in the
 * service's `refused_commands` table: a copy of a refused command (a redelivery, a retried send) is
 * refused again, never carried out after its caller was told it failed. Undefined when the command has
 * no id (called in process, not over Kafka): there is no copy to guard against.
 */
export function refusalMemoryOf(pool: SqlPool, partnerId: PartnerId, commandId: string | undefined, idempotencyKey: string): RefusalMemory | undefined {
  if (commandId === undefined) return undefined;
  return {
    recall: async (): Promise<Refusal | null> => {
      const { rows } = await pool.query<{ code: ErrorCode; message: string }>({ name: FIND.name, text: FIND.text, values: [commandId, partnerId] });
      return rows[0] ?? null;
    },
    keep: async ({ code, message }: Refusal): Promise<void> => {
      await pool.query({ name: KEEP.name, text: KEEP.text, values: [commandId, partnerId, idempotencyKey, code, message] });
    },
  };
}

/**
 * How long a refusal is kept. A copy of a command can only be carried out before the command's deadline
 * (REQUEST_TIMEOUT_MS, seconds: a service drops a command that reaches it later), so a day is far more
 * than any copy can outlive its refusal by, clock skew between hosts included.
 */
export const REFUSAL_RETENTION_HOURS = 24;

const PRUNE = statement('refused_command_prune', 'DELETE FROM refused_commands WHERE refused_at < $1::timestamptz - make_interval(hours => $2)');

/** Removes the refusals older than the retention; resolves with how many. */
export async function pruneRefusals(pool: SqlPool, now: Date, retentionHours = REFUSAL_RETENTION_HOURS): Promise<number> {
  const { rowCount } = await pool.query({ name: PRUNE.name, text: PRUNE.text, values: [now.toISOString(), retentionHours] });
  return rowCount ?? 0;
}

/** The first prune 10 s after start, then every 10 minutes (one indexed DELETE on `refused_at`). */
const PRUNE_INTERVAL_MS = 10 * 60_000;

/** Keeps a service's `refused_commands` to its retention, on a timer (a periodic job, with its metrics). */
export class RefusalRetention implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly job: PeriodicJob;

  constructor(pool: SqlPool, metrics?: PeriodicJobMetrics) {
    this.job = new PeriodicJob({ name: 'refusal-retention', intervalMs: PRUNE_INTERVAL_MS, firstRunAfterMs: 10_000, run: () => pruneRefusals(pool, new Date()), metrics });
  }

  onApplicationBootstrap(): void {
    this.job.start();
  }

  beforeApplicationShutdown(): Promise<void> {
    return this.job.stop();
  }
}

/** The retention job of a service that keeps refusals, on its Prisma service's pool. */
export function refusalRetentionProvider(sql: PooledClass): FactoryProvider<RefusalRetention> {
  return {
    provide: RefusalRetention,
    inject: [sql, { token: PeriodicJobMetrics, optional: true }],
    useFactory: (db: HasPool, metrics?: PeriodicJobMetrics) => new RefusalRetention(db.pool, metrics),
  };
}
