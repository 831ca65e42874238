import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { FastifyReply, FastifyRequest } from 'fastify';
import { hashApiKey, sameDigest } from '../auth/api-key';
import { FailedAuthThrottle } from '../auth/failed-auth-throttle';
import { environmentOf, KeyEnvironment, keyEnvironmentProblem } from '@partner/operator-access';
import { GatewayConfig } from '../config/gateway.config';
import { ApiError } from '../http/api-error';
import { OperatorKeyCache } from './operator-key-cache';
import { Operator, OperatorKeyRepository } from './operator-key.repository';

export type OperatorRequest = FastifyRequest & { operator?: Operator };

const unauthorized = () => new ApiError(401, { code: 'unauthorized', message: 'missing or unknown X-Admin-Key' });

/**
 * Authenticates an operator from X-Admin-Key against gateway.operator_keys (hashes only, compared in
 * constant time), and puts the operator on the request for the rate limit and the audit log. Only
 * X-Admin-Key is read and only operator keys match, so a partner key never opens an operator route.
 * Verified keys are remembered for OPERATOR_KEY_CACHE_MS (OperatorKeyCache): a revoked operator key stops
 * within that, and at once where its revocation's broadcast arrives. A key of the other environment (made
 * by a sandbox, on a database a sandbox once used) is refused with a 401 saying so
 * (docs/adr/0019-production-safe-by-default.md).
 */
@Injectable()
export class AdminKeyGuard implements CanActivate {
  private readonly environment: KeyEnvironment;

  constructor(
    @Inject(OperatorKeyRepository) private readonly keys: Pick<OperatorKeyRepository, 'findActiveByHash'>,
    private readonly cache: OperatorKeyCache,
    private readonly throttle: FailedAuthThrottle,
    config: GatewayConfig,
  ) {
    this.environment = environmentOf(config);
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const request = http.getRequest<OperatorRequest>();
    const header = request.headers['x-admin-key'];
    if (typeof header !== 'string' || header.length === 0 || header.length > 256) throw this.throttle.refused('operator', unauthorized());
    const hash = hashApiKey(header);
    const cached = this.cache.get(hash);
    if (cached && cached.until > Date.now()) {
      request.operator = cached.operator;
      return true;
    }
    // An unknown key costs a lookup: an address that causes too many gets 429 first (FailedAuthThrottle).
    this.throttle.beginLookup('operator', request.ip, (name, value) => void http.getResponse<FastifyReply>().header(name, value));
    const found = await this.keys.findActiveByHash(hash).catch((error: unknown) => {
      this.throttle.refund(request.ip);
      throw error;
    });
    if (!found || !sameDigest(found.hash, hash)) throw this.throttle.refused('operator', unauthorized());
    this.throttle.refund(request.ip);
    const problem = keyEnvironmentProblem('operator key', found.environment, this.environment);
    if (problem) throw new ApiError(401, { code: 'unauthorized', message: problem });
    const operator: Operator = { id: found.id, name: found.name, prefix: found.prefix };
    // Few operators exist: the bound only guards against a flood of distinct valid keys, which cannot happen.
    if (this.cache.size > 1_000) this.cache.clear();
    this.cache.set(hash, { operator, until: Date.now() + this.cache.ttlMs });
    request.operator = operator;
    return true;
  }
}
