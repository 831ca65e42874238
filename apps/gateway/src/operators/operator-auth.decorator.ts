import { applyDecorators, UseGuards } from '@nestjs/common';
import { ApiSecurity } from '@nestjs/swagger';
import { RateLimitGuard } from '../rate-limit/rate-limit.guard';
import { AdminKeyGuard } from './admin-key.guard';

/** An operator route: X-Admin-Key authenticates the operator, then the operator key's rate limit applies (in that order). */
export const OperatorAuth = (): MethodDecorator & ClassDecorator =>
  applyDecorators(ApiSecurity('admin'), UseGuards(AdminKeyGuard, RateLimitGuard));
