import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { FastifyRequest } from 'fastify';
import { GatewayConfig } from '../config/gateway.config';
import { ApiError } from '../http/api-error';
import { signatureProblem } from './pix-signature';

/** A call without a body is signed over no bytes. */
const NO_BODY = Buffer.alloc(0);

/** The Pix provider's routes: X-Pix-Signature must be the HMAC of the body's bytes as received (401 invalid_signature otherwise). */
@Injectable()
export class PixSignatureGuard implements CanActivate {
  constructor(private readonly config: GatewayConfig) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const problem = signatureProblem(
      [this.config.PIX_PROVIDER_WEBHOOK_SECRET, this.config.PIX_PROVIDER_WEBHOOK_SECRET_PREVIOUS],
      request.headers['x-pix-signature'],
      request.rawBody ?? NO_BODY,
      Math.floor(Date.now() / 1000),
    );
    if (problem) throw new ApiError(401, { code: 'invalid_signature', message: problem });
    return true;
  }
}
