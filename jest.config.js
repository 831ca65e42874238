// Every unit and integration suite in one Jest run (npm test drives it; see scripts/test/run.ts). The
// end-to-end suite is not a project here: it needs the running stack, and npm test runs it on its own
// with tools/e2e/jest.e2e.config.js as the root config (its test sequencer is only allowed there).
const { existsSync, readdirSync } = require('node:fs');
const { join } = require('node:path');

module.exports = {
  // An integration spec waits on real nodes, brokers and databases (a payout's replacement bound alone is
  // 4 s in tests): Jest's 5 s default, right for unit specs, fails them on a loaded machine.
  testTimeout: (process.env.JEST_SUITE ?? 'unit') === 'unit' ? 5_000 : 30_000,
  projects: [
    ...['apps', 'libs', 'tools'].flatMap((dir) =>
      readdirSync(join(__dirname, dir))
        .filter((name) => name !== 'e2e' && existsSync(join(__dirname, dir, name, 'jest.config.js')))
        .map((name) => `<rootDir>/${dir}/${name}/jest.config.js`),
    ),
    // libs/kafka's integration specs on its second client (KAFKA_CLIENT=platformatic, docs/adr/0027-kafkajs-risk-and-a-way-out.md).
    '<rootDir>/libs/kafka/jest.platformatic.config.js',
    // The specs of scripts/ and offline/, the Compose deployment's among them (scripts/docker/): not an Nx project, so listed here.
    '<rootDir>/scripts/jest.config.js',
  ],
};
