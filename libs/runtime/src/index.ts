export * from './lib/request-context';
export * from './lib/periodic-job';
export * from './lib/counterparty-answers';
export * from './lib/retry-delay';
