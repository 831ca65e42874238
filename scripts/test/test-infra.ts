/** Where the test broker and the test database are (npm test, npm run test:infra, the integration targets). */
export const TEST_KAFKA_PORT = Number(process.env.TEST_KAFKA_PORT ?? 19092);
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/partner_test';
