export * from './lib/tracing';
export * from './lib/mask-identifiers';
export * from './lib/masking-span-processor';
export * from './lib/redact-url';
export * from './lib/error-text';
