import { createHash } from 'node:crypto';
import { ErrorCode, fail, ok, PixKeyStatusResult, Reply } from '@partner/contracts';
import { IdempotencyRecord, PixKeyOperation } from './idempotency-record.repository';

/**
 * What identifies "the same request" for an idempotency key: the operation and every field but the key.
 * The operation is part of it, so a key used for a creation cannot be replayed as a deletion.
 */
export function fingerprintOf(operation: PixKeyOperation, document: string): string {
  return createHash('sha256').update(JSON.stringify([operation, document])).digest('hex');
}

/** The answer to a retried key: the first answer again, or a refusal when the request is another one. */
export function replayOf(previous: IdempotencyRecord, fingerprint: string): Reply<PixKeyStatusResult, 'idempotency_key_reused'> {
  if (previous.fingerprint !== fingerprint) {
    return fail('idempotency_key_reused', 'idempotency_key was already used with a different request', 'idempotency_key');
  }
  return ok({ status: previous.answer });
}

/** A domain refusal raised inside a transaction so that it rolls back (the key stays unbound), then answered. */
export class Rejected extends Error {
  constructor(readonly code: ErrorCode, message: string) {
    super(message);
  }
}

/** Raised inside a transaction whose decision another one made stale: it rolls back and the command runs again. */
export class Superseded extends Error {}
