import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { FastifyRequest } from 'fastify';
import { GatewayConfig } from '../config/gateway.config';
import { ApiError } from '../http/api-error';
import { hashApiKey } from './api-key';
import { ApiKeyCache } from './api-key-cache';
import { claimedEnvironment, environmentOf, KeyEnvironment, keyEnvironmentProblem } from './key-environment';
import { Partner } from './partner.repository';

export type AuthenticatedRequest = FastifyRequest & { partner: Partner };

const unauthorized = () => new ApiError(401, { code: 'unauthorized', message: 'missing or unknown X-API-Key' });

/**
 * Authenticates the partner from X-API-Key: from the process's key cache, else the database (ApiKeyCache).
 * A key whose text names the other environment (pk_sandbox_ on a production gateway, pk_live_ on a sandbox)
 * is refused at once with a message saying so; the database only ever finds keys of this gateway's
 * environment anyway (docs/adr/0019-production-safe-by-default.md).
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  private readonly environment: KeyEnvironment;

  constructor(private readonly keys: ApiKeyCache, config: GatewayConfig) {
    this.environment = environmentOf(config);
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const header = request.headers['x-api-key'];
    if (typeof header !== 'string' || header.length === 0 || header.length > 256) throw unauthorized();
    const claimed = claimedEnvironment(header);
    const problem = claimed && keyEnvironmentProblem('API key', claimed, this.environment);
    if (problem) throw new ApiError(401, { code: 'unauthorized', message: problem });
    const hash = hashApiKey(header);
    const partner = this.keys.cached(hash) ?? (await this.keys.lookUp(hash));
    if (!partner) throw unauthorized();
    authenticated(request, partner);
    return true;
  }
}

/** The partner is known: on the request for the handler, and in its context for the logs and the services. */
function authenticated(request: AuthenticatedRequest, partner: Partner): void {
  request.partner = partner;
  if (request.requestContext) request.requestContext.partnerId = partner.id;
}
