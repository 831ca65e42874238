export * from './lib/request-context';
export * from './lib/periodic-job';
