// End-to-end suites: HTTP against the running stack (npm test starts it and sets GATEWAY_URL). Every
// answer is checked against the OpenAPI document on the way (global-setup.js, zzz-response-contract.spec.ts).
const preset = require('../../jest.preset.js');

module.exports = {
  ...preset,
  displayName: 'e2e',
  rootDir: __dirname,
  testTimeout: 60_000,
  testSequencer: require.resolve('./sequencer.js'),
  globalSetup: require.resolve('./global-setup.js'),
};
