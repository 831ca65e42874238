export * from './lib/direct-queries';
export * from './lib/direct-replies';
export * from './lib/internal-trust';
