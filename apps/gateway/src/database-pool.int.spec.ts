import { Database } from '@partner/db';
import { generateApiKey } from './auth/api-key';
import { GatewayUnderTest } from './gateway-app.spec-support';
import type { PoolClient } from 'pg';

// Integration: the gateway's own pool exhausted (every connection held, as a flood of key lookups or a
// slow database would hold them). A request that needs a connection waits DATABASE_ACQUIRE_TIMEOUT_MS
// for one, then answers 503 with Retry-After: never a hang.

const ACQUIRE_TIMEOUT_MS = 300;
const gateway = new GatewayUnderTest({ env: { DATABASE_ACQUIRE_TIMEOUT_MS: String(ACQUIRE_TIMEOUT_MS) } });

beforeAll(() => gateway.start(), 90_000);
afterAll(() => gateway.stop(), 30_000);

describe("the gateway's database pool", () => {
  it('answers 503 with Retry-After once no connection frees up within the acquire timeout, and serves again after', async () => {
    const db = gateway.app.get(Database);
    const held: PoolClient[] = [];
    try {
      // Take every connection the pool will open (its max is 10).
      while (held.length < 10) held.push(await db.connect());

      // An unknown key must be looked up in the database: no connection comes.
      const res = await gateway.send('GET', '/partner/v1/events', { 'x-api-key': generateApiKey().key });
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ error: 'service_unavailable' });
      expect(res.headers['retry-after']).toBe('1');
      expect(res.elapsed).toBeGreaterThanOrEqual(ACQUIRE_TIMEOUT_MS - 50);
      expect(res.elapsed).toBeLessThan(ACQUIRE_TIMEOUT_MS + 5_000);
    } finally {
      for (const client of held) client.release();
    }
    // Connections back: the same kind of request is answered for what it is.
    expect((await gateway.send('GET', '/partner/v1/events', { 'x-api-key': generateApiKey().key })).status).toBe(401);
  }, 30_000);
});
