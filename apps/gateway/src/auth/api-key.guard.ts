import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { FastifyRequest } from 'fastify';
import { ApiError } from '../http/api-error';
import { hashApiKey } from './api-key';
import { ApiKeyCache } from './api-key-cache';
import { Partner } from './partner.repository';

export type AuthenticatedRequest = FastifyRequest & { partner: Partner };

const unauthorized = () => new ApiError(401, { code: 'unauthorized', message: 'missing or unknown X-API-Key' });

/** Authenticates the partner from X-API-Key: from the process's key cache, else the database (ApiKeyCache). */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(private readonly keys: ApiKeyCache) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const header = request.headers['x-api-key'];
    if (typeof header !== 'string' || header.length === 0 || header.length > 256) throw unauthorized();
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
