// Specs of the scripts, of the network workarounds in offline/ (offline/README.md) and of what they deploy
// (the build's change detection, the Compose files in scripts/docker/, the migrate step's database roles in
// scripts/db/...): unit and integration (npm test runs both; JEST_SUITE unset, the unit ones). Not an Nx
// project (scripts/ and offline/ belong to none): the root jest.config.js, which npm test runs, lists it. The
// preset's paths assume a project two folders down; scripts/ is one.
const { pathsToModuleNameMapper } = require('ts-jest');
const { compilerOptions } = require('../tsconfig.base.json');
const preset = require('../jest.preset.js');

module.exports = {
  ...preset,
  displayName: 'scripts',
  rootDir: __dirname,
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/../tsconfig.json' }],
    // As the preset: @platformatic/kafka's ES modules compiled to CommonJS (a spec that loads an app's config loads it).
    '/node_modules/@platformatic/.+\\.js$': '<rootDir>/jest/esm-to-cjs.transform.js',
  },
  moduleNameMapper: pathsToModuleNameMapper(compilerOptions.paths, { prefix: '<rootDir>/../' }),
  roots: ['<rootDir>', '<rootDir>/../offline'],
  testMatch: ['**/*.spec.ts'],
  setupFiles: ['<rootDir>/../jest.setup.js'],
};
