import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { FastifyRequest } from 'fastify';
import { GatewayConfig } from '../config/gateway.config';
import { ApiError } from '../http/api-error';
import { hashApiKey, sameDigest } from './api-key';

/** Guards operator-only sandbox routes with X-Admin-Key (ADMIN_API_KEY), compared in constant time. */
@Injectable()
export class AdminKeyGuard implements CanActivate {
  private readonly expected: string;

  constructor(config: GatewayConfig) {
    this.expected = hashApiKey(config.ADMIN_API_KEY);
  }

  canActivate(context: ExecutionContext): boolean {
    const header = context.switchToHttp().getRequest<FastifyRequest>().headers['x-admin-key'];
    if (typeof header === 'string' && header.length > 0 && sameDigest(hashApiKey(header), this.expected)) return true;
    throw new ApiError(401, { code: 'unauthorized', message: 'missing or wrong X-Admin-Key' });
  }
}
