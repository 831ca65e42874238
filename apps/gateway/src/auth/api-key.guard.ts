import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { FastifyRequest } from 'fastify';
import { GatewayConfig } from '../config/gateway.config';
import { ApiError } from '../http/api-error';
import { hashApiKey, sameDigest } from './api-key';
import { Partner, PartnerRepository } from './partner.repository';

export type AuthenticatedRequest = FastifyRequest & { partner: Partner };

const unauthorized = () => new ApiError(401, { code: 'unauthorized', message: 'missing or unknown X-API-Key' });

/**
 * Authenticates the partner from X-API-Key. Verified keys are remembered briefly (API_KEY_CACHE_MS)
 * so the hot path does not hit the database on every request; revocation takes effect within that time.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  private readonly cache = new Map<string, { partner: Partner; until: number }>();

  constructor(private readonly partners: PartnerRepository, private readonly config: GatewayConfig) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const header = request.headers['x-api-key'];
    if (typeof header !== 'string' || header.length === 0 || header.length > 256) throw unauthorized();
    const hash = hashApiKey(header);
    const cached = this.cache.get(hash);
    if (cached && cached.until > Date.now()) {
      authenticated(request, cached.partner);
      return true;
    }
    // A database that does not answer propagates: the error filter answers 503 for every unreachable-database
    // error (isDatabaseUnavailable), and a 500 for anything else, which would be a bug of ours.
    const found = await this.partners.findByKeyHash(hash);
    if (!found || !sameDigest(found.hash, hash)) throw unauthorized();
    const partner: Partner = { id: found.id, name: found.name, rateLimitPerSecond: found.rateLimitPerSecond, rateLimitBurst: found.rateLimitBurst };
    if (this.cache.size > 10_000) this.cache.clear();
    this.cache.set(hash, { partner, until: Date.now() + this.config.API_KEY_CACHE_MS });
    authenticated(request, partner);
    return true;
  }
}

/** The partner is known: on the request for the handler, and in its context for the logs and the services. */
function authenticated(request: AuthenticatedRequest, partner: Partner): void {
  request.partner = partner;
  if (request.requestContext) request.requestContext.partnerId = partner.id;
}
