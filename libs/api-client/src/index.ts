export * from './lib/partner-api-client';
export type { components, operations, paths } from './generated/partner-api';
