export * from './lib/load-config';
export * from './lib/common.config';
export * from './lib/config.decorators';
export * from './lib/database-url';
