export * from './lib/partner-load';
export * from './lib/money-audit';
export * from './lib/feed-audit';
export * from './lib/database-outage';
export * from './lib/chaos-report';
export * from './lib/chain-audit';
export * from './lib/chain-proxy';
export * from './lib/risk-controls';
