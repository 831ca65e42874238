import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { FastifyReply, FastifyRequest } from 'fastify';
import { GatewayConfig } from '../config/gateway.config';
import { ApiError } from '../http/api-error';
import { hashApiKey } from './api-key';
import { ApiKeyCache } from './api-key-cache';
import { FailedAuthThrottle } from './failed-auth-throttle';
import { claimedEnvironment, environmentOf, KeyEnvironment, keyEnvironmentProblem } from '@partner/operator-access';
import { Partner } from './partner.repository';

export type AuthenticatedRequest = FastifyRequest & { partner: Partner };

const unauthorized = () => new ApiError(401, { code: 'unauthorized', message: 'missing or unknown X-API-Key' });

/**
 * Authenticates the partner from X-API-Key: from the process's key cache, else the database (ApiKeyCache).
 * Only a key neither cached nor known to be unknown costs a lookup, and only while the client address
 * has not caused too many failed ones (FailedAuthThrottle: 429 with Retry-After then).
 * A key whose text names the other environment (pk_sandbox_ on a production gateway, pk_live_ on a sandbox)
 * is refused at once with a message saying so; the database only ever finds keys of this gateway's
 * environment anyway (docs/adr/0019-production-safe-by-default.md).
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  private readonly environment: KeyEnvironment;

  constructor(
    private readonly keys: ApiKeyCache,
    private readonly throttle: FailedAuthThrottle,
    config: GatewayConfig,
  ) {
    this.environment = environmentOf(config);
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const request = http.getRequest<AuthenticatedRequest>();
    const header = request.headers['x-api-key'];
    if (typeof header !== 'string' || header.length === 0 || header.length > 256) throw this.throttle.refused('partner', unauthorized());
    const claimed = claimedEnvironment(header);
    const problem = claimed && keyEnvironmentProblem('API key', claimed, this.environment);
    if (problem) throw new ApiError(401, { code: 'unauthorized', message: problem });
    const hash = hashApiKey(header);
    const cached = this.keys.cached(hash);
    if (cached) return authenticated(request, cached);
    if (this.keys.knownUnknown(hash)) throw this.throttle.refused('partner', unauthorized());
    // The same key already being looked up (a partner's concurrent calls on a cold cache): one lookup, one
    // token for all of them, or an honest partner at c=32 would meet the throttle meant for made-up keys.
    const underWay = this.keys.lookingUp(hash);
    if (underWay) {
      const partner = await underWay;
      if (!partner) throw this.throttle.refused('partner', unauthorized());
      return authenticated(request, partner);
    }
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

/**
 * The partner is known: on the request for the handler, and in its context for the logs and the services.
 * A disabled partner's keys are valid but refused (403 partner_disabled), so the partner learns why.
 */
function authenticated(request: AuthenticatedRequest, partner: Partner): true {
  if (partner.disabled) throw new ApiError(403, { code: 'partner_disabled', message: 'this partner is disabled: contact the operator' });
  request.partner = partner;
  if (request.requestContext) request.requestContext.partnerId = partner.id;
  return true;
}
