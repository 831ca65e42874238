import { Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { GatewayConfig } from '../config/gateway.config';
import { RateLimitBucketRepository } from './rate-limit-bucket.repository';
import { RateLimitInterceptor } from './rate-limit.interceptor';
import { MemoryRateLimitStore, RATE_LIMIT_STORE } from './rate-limit.store';

/** Applies the per-partner rate limit to every route a partner is authenticated on. */
@Module({
  providers: [
    RateLimitBucketRepository,
    {
      provide: RATE_LIMIT_STORE,
      inject: [GatewayConfig, RateLimitBucketRepository],
      useFactory: (config: GatewayConfig, shared: RateLimitBucketRepository) => (config.RATE_LIMIT_STORE === 'postgres' ? shared : new MemoryRateLimitStore()),
    },
    { provide: APP_INTERCEPTOR, useClass: RateLimitInterceptor },
  ],
})
export class RateLimitModule {}
