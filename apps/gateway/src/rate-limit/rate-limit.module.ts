import { Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { RateLimitInterceptor } from './rate-limit.interceptor';

/** Applies the per-partner rate limit to every route a partner is authenticated on. */
@Module({ providers: [{ provide: APP_INTERCEPTOR, useClass: RateLimitInterceptor }] })
export class RateLimitModule {}
