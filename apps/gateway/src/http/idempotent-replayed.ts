import type { FastifyReply } from 'fastify';

/** The header that tells a replayed answer from a first one (docs/api.md: "Headers"). */
export const IDEMPOTENT_REPLAYED = 'Idempotent-Replayed';

/**
 * Marks an answer that replays an idempotency key's first answer: `Idempotent-Replayed: true`. A first
 * execution carries no such header (absent, never `false`), as with the payment APIs integrators know.
 */
export function markReplayed(reply: FastifyReply, replayed: boolean): void {
  if (replayed) void reply.header(IDEMPOTENT_REPLAYED.toLowerCase(), 'true');
}
