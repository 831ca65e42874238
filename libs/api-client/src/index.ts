export * from './lib/partner-api-client';
export type { components, operations, paths } from './generated/partner-api';
export * from './lib/operator-api-client';
