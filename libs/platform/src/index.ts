export * from './lib/logging.module';
export * from './lib/service-health.module';
export * from './lib/bootstrap-service';
export * from './lib/metrics.module';
export * from './lib/metric-set';
export * from './lib/micro-batcher';
export * from './lib/in-parallel';
// The one masking helper lives with tracing (its span processor uses it before the apps load); logs use it too.
export { MASKED, maskIdentifiers, maskLogArguments, maskUrl } from '@partner/tracing';
export * from './lib/service.module';
