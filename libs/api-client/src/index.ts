export * from './lib/partner-api-client';
export * from './lib/operator-api-client';
export * from './sdk';
