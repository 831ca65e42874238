import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { FastifyRequest } from 'fastify';
import { hashApiKey, sameDigest } from '../auth/api-key';
import { environmentOf, KeyEnvironment, keyEnvironmentProblem } from '../auth/key-environment';
import { GatewayConfig } from '../config/gateway.config';
import { ApiError } from '../http/api-error';
import { Operator, OperatorKeyRepository } from './operator-key.repository';
import { OPERATOR_KEY_CACHE_MS } from './operator-keys';

export type OperatorRequest = FastifyRequest & { operator?: Operator };

const unauthorized = () => new ApiError(401, { code: 'unauthorized', message: 'missing or unknown X-Admin-Key' });

/**
 * Authenticates an operator from X-Admin-Key against gateway.operator_keys (hashes only, compared in
 * constant time), and puts the operator on the request for the rate limit and the audit log. Only
 * X-Admin-Key is read and only operator keys match, so a partner key never opens an operator route.
 * Verified keys are remembered for OPERATOR_KEY_CACHE_MS: a revoked operator key stops within that. A key of
 * the other environment (made by a sandbox, on a database a sandbox once used) is refused with a 401 saying
 * so (docs/adr/0019-production-safe-by-default.md).
 */
@Injectable()
export class AdminKeyGuard implements CanActivate {
  private readonly cache = new Map<string, { operator: Operator; until: number }>();

  private readonly environment: KeyEnvironment;

  constructor(private readonly keys: OperatorKeyRepository, config: GatewayConfig) {
    this.environment = environmentOf(config);
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<OperatorRequest>();
    const header = request.headers['x-admin-key'];
    if (typeof header !== 'string' || header.length === 0 || header.length > 256) throw unauthorized();
    const hash = hashApiKey(header);
    const cached = this.cache.get(hash);
    if (cached && cached.until > Date.now()) {
      request.operator = cached.operator;
      return true;
    }
    const found = await this.keys.findActiveByHash(hash);
    if (!found || !sameDigest(found.hash, hash)) throw unauthorized();
    const problem = keyEnvironmentProblem('operator key', found.environment, this.environment);
    if (problem) throw new ApiError(401, { code: 'unauthorized', message: problem });
    const operator: Operator = { id: found.id, name: found.name, prefix: found.prefix };
    // Few operators exist: the bound only guards against a flood of distinct valid keys, which cannot happen.
    if (this.cache.size > 1_000) this.cache.clear();
    this.cache.set(hash, { operator, until: Date.now() + OPERATOR_KEY_CACHE_MS });
    request.operator = operator;
    return true;
  }
}
