// The gateway's keys and audit log, shared with the operator CLI (scripts/cli), which runs where there is no apps/.
export * from './lib/secret-keys';
export * from './lib/audit-log';
export * from './lib/key-environment';
export * from './lib/operator-keys';
