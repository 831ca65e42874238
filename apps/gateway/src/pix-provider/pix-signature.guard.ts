import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { FastifyRequest } from 'fastify';
import { GatewayConfig } from '../config/gateway.config';
import { ApiError } from '../http/api-error';
import { signatureProblem } from './pix-signature';

/** The Pix provider's routes: X-Pix-Signature must be the HMAC of the body as received (401 invalid_signature otherwise). */
@Injectable()
export class PixSignatureGuard implements CanActivate {
  constructor(private readonly config: GatewayConfig) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const problem = signatureProblem(this.config.PIX_PROVIDER_WEBHOOK_SECRET, request.headers['x-pix-signature'], request.rawBody ?? '', Math.floor(Date.now() / 1000));
    if (problem) throw new ApiError(401, { code: 'invalid_signature', message: problem });
    return true;
  }
}
