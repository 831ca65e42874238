import { requestFingerprint } from '@partner/db';
import { PixKeyOperation } from './idempotency-record.repository';

/**
 * What identifies "the same request" for an idempotency key: the operation and every field but the key.
 * The operation is part of it, so a key used for a creation cannot be replayed as a deletion.
 */
export function fingerprintOf(operation: PixKeyOperation, document: string): string {
  return requestFingerprint([operation, document]);
}
