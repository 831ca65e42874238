import { Global, Module } from '@nestjs/common';
import { GatewayConfig } from '../config/gateway.config';
import { RateLimitBucketRepository } from './rate-limit-bucket.repository';
import { RateLimitGuard } from './rate-limit.guard';
import { MemoryRateLimitStore, RATE_LIMIT_STORE } from './rate-limit.store';

/** The per-partner rate limit; PartnerAuth applies its guard to every route a partner is authenticated on. */
@Global()
@Module({
  providers: [
    RateLimitBucketRepository,
    {
      provide: RATE_LIMIT_STORE,
      inject: [GatewayConfig, RateLimitBucketRepository],
      useFactory: (config: GatewayConfig, shared: RateLimitBucketRepository) =>
        config.RATE_LIMIT_STORE === 'postgres' ? shared : new MemoryRateLimitStore(),
    },
    RateLimitGuard,
  ],
  exports: [RATE_LIMIT_STORE, RateLimitGuard],
})
export class RateLimitModule {}
