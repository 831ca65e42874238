export * from './lib/logging.module';
export * from './lib/service-health.module';
export * from './lib/bootstrap-service';
export * from './lib/prisma-adapter';
export * from './lib/metrics.module';
export * from './lib/micro-batcher';
export * from './lib/mask-identifiers';
export * from './lib/partner-users';
