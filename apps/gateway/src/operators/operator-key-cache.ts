import { Injectable } from '@nestjs/common';
import { GatewayConfig } from '../config/gateway.config';
import type { Operator } from './operator-key.repository';

/**
 * Verified operator keys by hash, each for `ttlMs` (OPERATOR_KEY_CACHE_MS): one per gateway instance, shared by every
 * operator route's guard (Nest makes a guard per module), so that `forget` drops a revoked key for all of
 * them at once when its revocation is broadcast (ApiKeyRevocationsListener; the CLI's revocations).
 */
@Injectable()
export class OperatorKeyCache extends Map<string, { operator: Operator; until: number }> {
  readonly ttlMs: number;

  constructor(config: GatewayConfig) {
    super();
    this.ttlMs = config.OPERATOR_KEY_CACHE_MS;
  }

  forget(keyId: string): void {
    for (const [hash, { operator }] of this) if (operator.id === keyId) this.delete(hash);
  }
}
