// Every project's suite in one Jest run (npm test drives it; see scripts/test/run.ts).
module.exports = {
  projects: ['<rootDir>/apps/*/jest.config.js', '<rootDir>/libs/*/jest.config.js'],
};
