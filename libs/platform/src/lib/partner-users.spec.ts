import { ScriptedConnection, testPartnerId } from '@partner/testing';
import { Queryable } from '@partner/db';
import { PartnerUserRepository, RecordPartnerUserUseCase } from './partner-users';

/** A pool that answers from a script and records what it was asked. */
function scriptedPool(answers: Array<Array<Record<string, unknown>>>) {
  const pool = new ScriptedConnection(answers);
  return { pool, calls: pool.sent };
}

class ServiceUsers extends PartnerUserRepository {
  constructor(pool: Queryable, prefix: string) {
    super(pool, prefix);
  }
}

describe('PartnerUserRepository', () => {
  const partnerId = testPartnerId();
  const createdAt = new Date('2026-01-02T03:04:05.678Z');

  it('answers a new user from the insert alone, scoped by partner, under the service-prefixed statement names', async () => {
    const { pool, calls } = scriptedPool([[{ created_at: createdAt }]]);
    expect(await new ServiceUsers(pool, 'svc').upsert(partnerId, '12345678901')).toEqual({ created: true, createdAt });
    expect(calls).toEqual([expect.objectContaining({ name: 'svc_user_upsert', values: [partnerId, '12345678901'] })]);
  });

  it("answers a known user with the stored row's creation time", async () => {
    const { pool, calls } = scriptedPool([[], [{ created_at: createdAt }]]);
    expect(await new ServiceUsers(pool, 'svc').upsert(partnerId, '12345678901')).toEqual({ created: false, createdAt });
    expect(calls.map((c) => c.name)).toEqual(['svc_user_upsert', 'svc_user_created_at']);
  });

  it('tells whether the partner has the user', async () => {
    const { pool, calls } = scriptedPool([[{ exists: false }]]);
    expect(await new ServiceUsers(pool, 'svc').exists(partnerId, '12345678901')).toBe(false);
    expect(calls[0]).toMatchObject({ name: 'svc_user_exists', values: [partnerId, '12345678901'] });
  });
});

describe('RecordPartnerUserUseCase', () => {
  it('answers whether the user was new and when it was first recorded, in ISO 8601', async () => {
    const createdAt = new Date('2026-01-02T03:04:05.678Z');
    const { pool } = scriptedPool([[], [{ created_at: createdAt }]]);
    const reply = await new RecordPartnerUserUseCase(new ServiceUsers(pool, 'svc')).execute({
      partner_id: testPartnerId(),
      document: '12345678901',
    });
    expect(reply).toEqual({ ok: true, data: { created: false, created_at: '2026-01-02T03:04:05.678Z' } });
  });
});
