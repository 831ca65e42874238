import { Global, Module } from '@nestjs/common';
import { ApiKeyRepository } from '../api-keys/api-key.repository';
import { ApiKeyCache } from './api-key-cache';
import { ApiKeyGuard } from './api-key.guard';
import { FailedAuthThrottle } from './failed-auth-throttle';
import { PartnerRepository } from './partner.repository';

/** Partner authentication (X-API-Key), global: every partner route's guard and what it reads. */
@Global()
@Module({
  providers: [PartnerRepository, ApiKeyRepository, ApiKeyCache, ApiKeyGuard, FailedAuthThrottle],
  exports: [PartnerRepository, ApiKeyRepository, ApiKeyCache, ApiKeyGuard, FailedAuthThrottle],
})
export class AuthModule {}
