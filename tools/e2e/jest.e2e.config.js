// End-to-end suites: HTTP against the running stack (npm test starts it and sets GATEWAY_URL). Every
// answer is checked against the OpenAPI document on the way (global-setup.js, response-contract.spec.ts).
// Named jest.e2e.config.js, not jest.config.js, so that Nx infers no `test` target for it: `nx run-many -t
// test` runs the suites that need nothing, and this one needs the whole stack (`npx nx e2e e2e` runs it
// through npm test, which starts the stack). Its specs are all of this kind, whatever JEST_SUITE says.
process.env.JEST_SUITE = 'all';
const preset = require('../../jest.preset.js');

module.exports = {
  ...preset,
  displayName: 'e2e',
  rootDir: __dirname,
  testTimeout: 60_000,
  testSequencer: require.resolve('./sequencer.js'),
  globalSetup: require.resolve('./global-setup.js'),
};
