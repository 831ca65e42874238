// The gateway's keys and audit log, shared with the operator CLI (apps/operator-cli), which runs them on the database.
export * from './lib/secret-keys';
export * from './lib/audit-log';
export * from './lib/key-environment';
export * from './lib/operator-keys';
