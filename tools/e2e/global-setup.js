// Once per e2e run, before any suite: an empty log of the answers checked against the OpenAPI document
// (libs/testing response-contract.ts appends to it; response-contract.spec.ts, the last suite, reads it).
const { mkdirSync, writeFileSync } = require('node:fs');
const { dirname, join } = require('node:path');

module.exports = () => {
  const log = join(__dirname, '..', '..', '.cache', 'test', 'response-contract.jsonl');
  mkdirSync(dirname(log), { recursive: true });
  writeFileSync(log, '');
  process.env.RESPONSE_CONTRACT_LOG = log;
};
