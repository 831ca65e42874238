export * from './lib/error-detail';
export * from './lib/validate-contract';
export * from './lib/brazil.validators';
export * from './lib/evm.validators';
