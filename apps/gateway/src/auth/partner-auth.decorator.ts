import { applyDecorators, UseGuards } from '@nestjs/common';
import { ApiSecurity } from '@nestjs/swagger';
import { RateLimitGuard } from '../rate-limit/rate-limit.guard';
import { ApiKeyGuard } from './api-key.guard';

/** A partner route: X-API-Key authenticates the partner, then the partner's rate limit applies (in that order). */
export const PartnerAuth = (): MethodDecorator & ClassDecorator =>
  applyDecorators(ApiSecurity('partner'), UseGuards(ApiKeyGuard, RateLimitGuard));
