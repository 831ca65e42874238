import { ErrorCode, PartnerId } from '@partner/contracts';
import { Refusal, RefusalMemory } from './idempotency';
import { Queryable, statement } from './unit-of-work';

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
export function refusalMemoryOf(
  db: Queryable,
  partnerId: PartnerId,
  commandId: string | undefined,
  idempotencyKey: string,
): RefusalMemory | undefined {
  if (commandId === undefined) return undefined;
  return {
    recall: async (): Promise<Refusal | null> => {
      const { rows } = await db.query<{ code: ErrorCode; message: string }>(FIND, [commandId, partnerId]);
      return rows[0] ?? null;
    },
    keep: async ({ code, message }: Refusal): Promise<void> => {
      await db.query(KEEP, [commandId, partnerId, idempotencyKey, code, message]);
    },
  };
}

/**
 * How long a refusal is kept. A copy of a command can only be carried out before the command's deadline
 * (REQUEST_TIMEOUT_MS, seconds: a service drops a command that reaches it later), so a day is far more
 * than any copy can outlive its refusal by, clock skew between hosts included.
 */
export const REFUSAL_RETENTION_HOURS = 24;

const PRUNE = statement(
  'refused_command_prune',
  'DELETE FROM refused_commands WHERE refused_at < $1::timestamptz - make_interval(hours => $2)',
);

/** Removes the refusals older than the retention; resolves with how many. */
export async function pruneRefusals(db: Queryable, now: Date, retentionHours = REFUSAL_RETENTION_HOURS): Promise<number> {
  const { rowCount } = await db.query(PRUNE, [now.toISOString(), retentionHours]);
  return rowCount ?? 0;
}
