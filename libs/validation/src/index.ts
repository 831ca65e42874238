export * from './lib/error-detail';
export * from './lib/validate-contract';
export * from './lib/brazil.validators';
export * from './lib/evm.validators';
export * from './lib/cnpj.validators';
export * from './lib/phone.validators';
export * from './lib/calendar-date.validators';
export * from './lib/json-object.validators';
