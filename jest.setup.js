// Nest's logger writes to stdout from inside tested code; keep test output readable unless asked.
if (!process.env.TEST_LOGS) require('@nestjs/common').Logger.overrideLogger(false);

// Unit specs get no infrastructure: anything that still connects fails fast (connection refused on a
// closed port) rather than falling back to a config default such as the dev database of `npm start`.
if ((process.env.JEST_SUITE ?? 'unit') === 'unit') {
  process.env.DATABASE_URL = 'postgresql://unit-specs-have-no-database@127.0.0.1:9/none';
  process.env.KAFKA_BROKERS = '127.0.0.1:9';
}

// Integration specs never run against a database or broker they were not given, nor against the dev
// database `npm start` uses (the config default): `npm test` and `nx run <project>:integration` give them
// the test ones.
if ((process.env.JEST_SUITE ?? 'unit') !== 'unit') {
  const missing = ['DATABASE_URL', 'KAFKA_BROKERS'].filter((name) => !process.env[name]);
  if (missing.length > 0) {
    throw new Error(
      `Integration specs need ${missing.join(' and ')}: run them with \`npx nx run <project>:integration\` (after \`npm run test:infra\`) or \`npm test\`.`,
    );
  }
  const database = new URL(process.env.DATABASE_URL).pathname.slice(1);
  if (database === 'partner') {
    throw new Error(
      'Integration specs refuse DATABASE_URL …/partner, the dev database of `npm start`: use the test database (partner_test).',
    );
  }
}
