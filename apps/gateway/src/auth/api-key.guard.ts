import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../http/api-error';
import { hashApiKey } from './api-key';
import { ApiKeyCache } from './api-key-cache';
import { FailedAuthThrottle } from './failed-auth-throttle';
import { Partner } from './partner.repository';

export type AuthenticatedRequest = FastifyRequest & { partner: Partner };

const unauthorized = () => new ApiError(401, { code: 'unauthorized', message: 'missing or unknown X-API-Key' });

/**
 * Authenticates the partner from X-API-Key: from the process's key cache, else the database (ApiKeyCache).
 * Only a key neither cached nor known to be unknown costs a lookup, and only while the client address
 * has not caused too many failed ones (FailedAuthThrottle: 429 with Retry-After then).
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly keys: ApiKeyCache,
    private readonly throttle: FailedAuthThrottle,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const request = http.getRequest<AuthenticatedRequest>();
    const header = request.headers['x-api-key'];
    if (typeof header !== 'string' || header.length === 0 || header.length > 256) throw this.throttle.refused('partner', unauthorized());
    const hash = hashApiKey(header);
    const cached = this.keys.cached(hash);
    if (cached) return authenticated(request, cached);
    if (this.keys.knownUnknown(hash)) throw this.throttle.refused('partner', unauthorized());
    this.throttle.beginLookup('partner', request.ip, (name, value) => void http.getResponse<FastifyReply>().header(name, value));
    const partner = await this.keys.lookUp(hash).catch((error: unknown) => {
      this.throttle.refund(request.ip);
      throw error;
    });
    if (!partner) throw this.throttle.refused('partner', unauthorized());
    this.throttle.refund(request.ip);
    return authenticated(request, partner);
  }
}

/** The partner is known: on the request for the handler, and in its context for the logs and the services. */
function authenticated(request: AuthenticatedRequest, partner: Partner): true {
  request.partner = partner;
  if (request.requestContext) request.requestContext.partnerId = partner.id;
  return true;
}
