import { Injectable } from '@nestjs/common';
import type { Operator } from './operator-key.repository';

/**
 * Verified operator keys by hash, for OPERATOR_KEY_CACHE_MS each: one per gateway instance, shared by every
 * operator route's guard (Nest makes a guard per module), so that `forget` drops a revoked key for all of
 * them at once when its revocation is broadcast (ApiKeyRevocationsListener; the CLI's revocations).
 */
@Injectable()
export class OperatorKeyCache extends Map<string, { operator: Operator; until: number }> {
  forget(keyId: string): void {
    for (const [hash, { operator }] of this) if (operator.id === keyId) this.delete(hash);
  }
}
