import { newCpf, requireEnv, testPartnerId } from '@partner/testing';
import { Pool } from 'pg';
import { PartnerUserRepository, RecordPartnerUserUseCase } from './partner-users';

// Integration: the users tables of both services that keep them, in their real schemas (npm test migrates
// them), each through a pool whose search_path names its schema, as the service's Database's does.
class SchemaUsers extends PartnerUserRepository {
  constructor(pool: Pool, prefix: string) {
    super(pool, prefix);
  }
}

describe.each(['pix_keys', 'inflows'])('PartnerUserRepository and RecordPartnerUserUseCase in schema %s (PostgreSQL)', (schema) => {
  const pool = new Pool({ connectionString: requireEnv('DATABASE_URL'), max: 12, options: `-c search_path=${schema}` });
  const users = new SchemaUsers(pool, schema);
  const recordUser = new RecordPartnerUserUseCase(users);
  const stored = async (partnerId: string, document?: string): Promise<Array<{ created_at: Date }>> =>
    (
      await pool.query<{ created_at: Date }>('SELECT created_at FROM users WHERE partner_id = $1 AND ($2::text IS NULL OR document = $2)', [
        partnerId,
        document ?? null,
      ])
    ).rows;

  afterAll(() => pool.end());

  it('stores a user once: the first upsert creates, a repeat changes nothing', async () => {
    const partnerId = testPartnerId();
    const document = newCpf();

    const first = await users.upsert(partnerId, document);
    const [row] = await stored(partnerId, document);
    expect(first).toEqual({ created: true, createdAt: row.created_at });
    expect(await users.upsert(partnerId, document)).toEqual({ created: false, createdAt: row.created_at });

    expect(await stored(partnerId, document)).toHaveLength(1);
    expect(await users.exists(partnerId, document)).toBe(true);
  });

  it('creates exactly once under 20 concurrent upserts', async () => {
    const partnerId = testPartnerId();
    const document = newCpf();

    const results = await Promise.all(Array.from({ length: 20 }, () => users.upsert(partnerId, document)));

    expect(results.filter((r) => r.created)).toHaveLength(1);
    // The losers of the race answer the winner's row too.
    expect(new Set(results.map((r) => r.createdAt.getTime())).size).toBe(1);
    expect(await stored(partnerId, document)).toHaveLength(1);
  });

  it('scopes users by partner', async () => {
    const partnerId = testPartnerId();
    const document = newCpf();
    await users.upsert(partnerId, document);

    expect(await users.exists(testPartnerId(), document)).toBe(false);
    expect(await users.exists(partnerId, newCpf())).toBe(false);
  });

  it("answers whether the user is new and the row's creation time in ISO 8601, the same on every call", async () => {
    const command = { partner_id: testPartnerId(), document: newCpf() };
    const first = await recordUser.execute(command);
    const [row] = await stored(command.partner_id);
    expect(first).toEqual({ ok: true, data: { created: true, created_at: row.created_at.toISOString() } });
    expect(await recordUser.execute(command)).toEqual({ ok: true, data: { created: false, created_at: row.created_at.toISOString() } });
    expect(await stored(command.partner_id)).toHaveLength(1);
  });

  it('keeps one row when the same user arrives many times at once, every reply with its creation time', async () => {
    const command = { partner_id: testPartnerId(), document: newCpf() };
    const replies = await Promise.all(Array.from({ length: 10 }, () => recordUser.execute({ ...command })));
    expect(replies.filter((r) => r.ok && r.data.created)).toHaveLength(1);
    const [row] = await stored(command.partner_id);
    for (const reply of replies) expect(reply).toMatchObject({ ok: true, data: { created_at: row.created_at.toISOString() } });
    expect(await stored(command.partner_id)).toHaveLength(1);
  });

  it('scopes users by partner: the same CPF under another partner is another user', async () => {
    const document = newCpf();
    await recordUser.execute({ partner_id: testPartnerId(), document });
    const other = testPartnerId();
    expect(await users.exists(other, document)).toBe(false);
    expect(await recordUser.execute({ partner_id: other, document })).toMatchObject({ ok: true, data: { created: true } });
  });
});
