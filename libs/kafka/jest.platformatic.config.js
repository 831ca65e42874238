// libs/kafka's integration specs once more on @platformatic/kafka (KAFKA_CLIENT=platformatic), the opt-in
// alternative to kafkajs (docs/adr/0027-kafkajs-risk-and-a-way-out.md): the root jest.config.js lists it,
// so `npm test` proves both clients. Its unit specs run once, in jest.config.js.
const preset = require('../../jest.preset.js');

module.exports = {
  ...preset,
  displayName: 'kafka (platformatic)',
  rootDir: __dirname,
  // Unit runs ignore them (the preset's testPathIgnorePatterns).
  testMatch: ['<rootDir>/src/**/*.int.spec.ts'],
  setupFiles: ['<rootDir>/jest.platformatic.setup.js', ...preset.setupFiles],
};
