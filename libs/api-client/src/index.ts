export * from './lib/partner-api-client';
export * from './sdk';
