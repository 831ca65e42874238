export * from './lib/poll';
export * from './lib/fixtures';
export * from './lib/api-client';
export * from './lib/events.fixtures';
export * from './lib/chaos/withdrawal-load';
export * from './lib/chaos/withdrawal-audit';
export * from './lib/chaos/database-outage';
export * from './lib/chaos/chaos-report';
