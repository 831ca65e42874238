import { Pool } from 'pg';
import { Topics } from '@partner/contracts';
import { requireEnv } from '@partner/testing';
import { OperatorKeyCommands } from './operator-keys';

// Integration against the real gateway schema: what `npm run cli -- operator-key create|revoke` runs.
const pool = new Pool({ connectionString: requireEnv('DATABASE_URL'), max: 2, options: '-c search_path=gateway' });
afterAll(() => pool.end());
const commands = new OperatorKeyCommands(pool);

const auditOf = async (keyId: string) =>
  (
    await pool.query(
      'SELECT method, route, operator_key_id, partner_id, key_id, document, status_code, request_id FROM gateway.audit_log WHERE key_id = $1 ORDER BY id',
      [keyId],
    )
  ).rows;
const broadcastsOf = async (keyId: string) =>
  (
    await pool.query(
      `SELECT topic, key, payload, request_id FROM gateway.outbox_messages WHERE topic = $1 AND payload->>'key_id' = $2 ORDER BY id`,
      [Topics.GatewayApiKeyRevoked, keyId],
    )
  ).rows;

describe('OperatorKeyCommands (the CLI): audited and broadcast like the operator API', () => {
  it('a creation writes its audit entry in the same transaction, and broadcasts nothing', async () => {
    const created = await commands.create('cli audit spec');
    const [entry, ...more] = await auditOf(created.id);
    expect(more).toEqual([]);
    expect(entry).toEqual({
      method: 'CLI',
      route: 'operator-key create',
      operator_key_id: null,
      partner_id: null,
      key_id: created.id,
      document: null,
      status_code: 201,
      request_id: expect.any(String),
    });
    expect(await broadcastsOf(created.id)).toEqual([]);
  });

  it('a revocation is audited and broadcast once, on the API keys topic, under the audit entry request id; again: audited, not broadcast', async () => {
    const { id } = await commands.create('cli revoke spec');
    const revoked = await commands.revoke(id);
    expect(revoked?.revoked_at).toBeInstanceOf(Date);
    expect(await commands.revoke(id)).toMatchObject({ id, revoked_at: revoked?.revoked_at });

    const entries = await auditOf(id);
    expect(entries.map((e) => [e.route, e.status_code])).toEqual([
      ['operator-key create', 201],
      ['operator-key revoke', 200],
      ['operator-key revoke', 200],
    ]);
    const [broadcast, ...more] = await broadcastsOf(id);
    expect(more).toEqual([]);
    expect(broadcast).toEqual({
      topic: Topics.GatewayApiKeyRevoked,
      key: id,
      payload: { key_type: 'operator', key_id: id, revoked_at: (revoked?.revoked_at as Date).toISOString() },
      request_id: entries[1].request_id,
    });
  });

  it('revoking an unknown key is audited as 404 and changes nothing', async () => {
    const unknown = '00000000-0000-4000-8000-0000000000aa';
    expect(await commands.revoke(unknown)).toBeNull();
    expect((await auditOf(unknown)).map((e) => [e.route, e.status_code])).toContainEqual(['operator-key revoke', 404]);
    expect(await broadcastsOf(unknown)).toEqual([]);
  });
});
