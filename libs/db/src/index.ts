export * from './lib/database';
export * from './lib/unit-of-work';
export * from './lib/outbox-message';
export * from './lib/outbox-store';
export * from './lib/idempotency';
export * from './lib/refused-commands';
export * from './lib/refusal-retention';
export * from './lib/keyset-page';
