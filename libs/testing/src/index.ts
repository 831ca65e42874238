export * from './lib/poll';
export * from './lib/fixtures';
export * from './lib/api-client';
export * from './lib/events.fixtures';
