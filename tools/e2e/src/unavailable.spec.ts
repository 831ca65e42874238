import { ApiClient, pollUntil, requireEnv, withdrawalRequest } from '@partner/testing';
import { Pool } from 'pg';
import { balanceOf, newPartner, newUser } from './support/sandbox';

// docs/api.md "What 503 means" (ADR 0016): 503 = outcome unknown; the same idempotency key gives the one
// outcome. The withdrawals service is stalled past the gateway's REQUEST_TIMEOUT_MS by a lock on the
// user's account row, held by this test: the command has started (its transaction waits on the lock)
// when the gateway gives up, so it completes after the 503. The deadline that drops commands which have
// not started is proven in libs/kafka/src/lib/handler.decorators.int.spec.ts.

const USDT = 1_000_000;
const MATIC_MEDIUM_FEE = 50_000;
const db = new Pool({ connectionString: requireEnv('DATABASE_URL'), max: 2 });
afterAll(() => db.end());

describe('a service stalled past the gateway timeout', () => {
  it('answers 503 with Retry-After, outcome unknown; the retry with the same key gives the one withdrawal, debited once', async () => {
    const { id: partnerId, api } = await newPartner('stalled withdrawals');
    const document = await newUser(api, 10 * USDT);
    const request = withdrawalRequest(document, { fee_choice: 'MEDIUM' });

    const lock = await db.connect();
    let first: Awaited<ReturnType<ApiClient['post']>>;
    try {
      await lock.query('BEGIN');
      await lock.query('SELECT 1 FROM withdrawals.accounts WHERE partner_id = $1 AND document = $2 FOR UPDATE', [partnerId, document]);
      first = await api.post('/partner/v1/withdrawals/usdt', request);
    } finally {
      await lock.query('COMMIT').catch(() => undefined);
      lock.release();
    }

    expect(first.status).toBe(503);
    expect(first.body).toMatchObject({
      error: 'service_unavailable',
      message: 'the service did not answer in time; the outcome is unknown: retry with the same idempotency_key',
    });
    expect(Number(first.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);

    // The stalled command was under way: once the lock goes it completes, and the retry replays it.
    const retried = await pollUntil(
      'the retry answered',
      () => api.post<{ id: number }>('/partner/v1/withdrawals/usdt', request),
      (r) => r.status !== 503,
      { timeoutMs: 60_000, intervalMs: 1_000 },
    );
    expect([200, 201]).toContain(retried.status);
    const again = await api.post<{ id: number }>('/partner/v1/withdrawals/usdt', request);
    expect({ status: again.status, id: again.body.id }).toEqual({ status: 200, id: retried.body.id });

    // One outcome: one withdrawal for the key, one debit.
    const { rows } = await db.query('SELECT id FROM withdrawals.withdrawals WHERE partner_id = $1 AND idempotency_key = $2', [
      partnerId,
      request.idempotency_key,
    ]);
    expect(rows).toHaveLength(1);
    expect(await balanceOf(api, document)).toBe(10 * USDT - USDT - MATIC_MEDIUM_FEE);
  }, 90_000);
});
