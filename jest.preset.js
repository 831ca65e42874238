// Shared Jest settings for every project. Type checking is done once by `tsc` (npm run typecheck),
// so ts-jest only transpiles: on a 2-core machine that halves the suite's start-up time.
//
// Two kinds of spec (docs/development.md: "Tests"):
//   *.spec.ts      unit: no broker, no database (`npx nx test <project>`); the setup file points
//                  DATABASE_URL and KAFKA_BROKERS at a closed port, so a unit spec that reaches for
//                  either fails at once instead of writing into whatever database is configured.
//   *.int.spec.ts  integration: the test broker and the test database (`npx nx run <project>:integration`,
//                  which checks they are there first); `npm test` starts both and runs every kind.
// (A third kind, *.type-spec.ts, holds type tests: `tsc -p tsconfig.json` checks them, Jest never runs them.)
// JEST_SUITE picks which run: unit (the default), integration, or all.
const { pathsToModuleNameMapper } = require('ts-jest');
const { compilerOptions } = require('./tsconfig.base.json');

const suite = process.env.JEST_SUITE ?? 'unit';
if (!['unit', 'integration', 'all'].includes(suite)) throw new Error(`JEST_SUITE must be unit, integration or all, not "${suite}"`);

module.exports = {
  testEnvironment: 'node',
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/../../tsconfig.json' }],
    // ES modules only, which Jest cannot require: compiled to CommonJS (KAFKA_CLIENT=platformatic, ADR 0027).
    '/node_modules/@platformatic/.+\\.js$': '<rootDir>/../../scripts/jest/esm-to-cjs.transform.js',
  },
  transformIgnorePatterns: ['/node_modules/(?!@platformatic/)'],
  moduleFileExtensions: ['ts', 'js', 'json'],
  moduleNameMapper: pathsToModuleNameMapper(compilerOptions.paths, { prefix: '<rootDir>/../../' }),
  testMatch: suite === 'integration' ? ['<rootDir>/src/**/*.int.spec.ts'] : ['<rootDir>/src/**/*.spec.ts'],
  testPathIgnorePatterns: suite === 'unit' ? ['/node_modules/', '\\.int\\.spec\\.ts$'] : ['/node_modules/'],
  setupFiles: ['<rootDir>/../../jest.setup.js'],
};
