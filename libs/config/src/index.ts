export * from './lib/load-config';
export * from './lib/common.config';
