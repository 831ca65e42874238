import { requireEnv } from '@partner/testing';
import { Pool } from 'pg';
import {
  addEnvironmentOperatorKey,
  countActiveOperatorKeys,
  createOperatorKey,
  hashApiKey,
  listOperatorKeys,
  revokeOperatorKey,
} from '@partner/operator-access';
import { GatewayUnderTest } from '../gateway-app.spec-support';
import { adminKeyOfOtherEnvironment } from './operator-keys.bootstrap';

// Integration against the real gateway schema, through a pool with no search_path: what a CLI has.
const pool = new Pool({ connectionString: requireEnv('DATABASE_URL'), max: 2 });
afterAll(() => pool.end());

const stored = async (id: string) => (await pool.query('SELECT * FROM gateway.operator_keys WHERE id = $1', [id])).rows[0];

describe('operator keys in the database (what the CLI calls)', () => {
  it('creates a key, returns it once and stores only its SHA-256', async () => {
    const before = await countActiveOperatorKeys(pool, 'production');
    const created = await createOperatorKey(pool, '  ops team  ');
    expect(created).toEqual({
      id: expect.any(String),
      name: 'ops team',
      prefix: created.key.slice(0, 16),
      key: expect.stringMatching(/^adm_[A-Za-z0-9_-]{43}$/),
      environment: 'production',
      created_at: expect.any(Date),
      revoked_at: null,
    });
    const row = await stored(created.id);
    expect(row.hash).toBe(hashApiKey(created.key));
    expect(JSON.stringify(row)).not.toContain(created.key);
    expect(await countActiveOperatorKeys(pool, 'production')).toBe(before + 1);
    expect((await listOperatorKeys(pool)).map((k) => k.id)).toContain(created.id);
  });

  it('stores the environment it is told, and counts active keys per environment', async () => {
    const [sandboxBefore, productionBefore] = [
      await countActiveOperatorKeys(pool, 'sandbox'),
      await countActiveOperatorKeys(pool, 'production'),
    ];
    const created = await createOperatorKey(pool, 'sandbox ops', 'sandbox');
    expect((await stored(created.id)).environment).toBe('sandbox');
    expect([await countActiveOperatorKeys(pool, 'sandbox'), await countActiveOperatorKeys(pool, 'production')]).toEqual([
      sandboxBefore + 1,
      productionBefore,
    ]);
  });

  it('an ADMIN_API_KEY a sandbox stored first stays a sandbox key when a production gateway adds it (which then refuses to start)', async () => {
    const known = `known-sandbox-env-key-${Date.now()}-${'k'.repeat(16)}`;
    expect(await addEnvironmentOperatorKey(pool, known, 'sandbox')).toBe('sandbox');
    expect(await addEnvironmentOperatorKey(pool, known, 'production')).toBe('sandbox');
    const production = new GatewayUnderTest({
      bus: { request: () => Promise.reject(new Error('no services here')) },
      env: { SANDBOX: 'false', ADMIN_API_KEY: known },
    });
    await expect(production.start()).rejects.toThrow(adminKeyOfOtherEnvironment('sandbox', 'production'));
    await production.stop();
  });

  it('refuses an empty name', async () => {
    await expect(createOperatorKey(pool, '  ')).rejects.toThrow(/1-120 characters/);
  });

  it('adds the environment key once however many instances start, with a prefix that reveals none of it', async () => {
    // The key every in-process gateway of the suites starts with: it must stay active for them.
    const key = GatewayUnderTest.ADMIN_KEY;
    const added = await Promise.all([
      addEnvironmentOperatorKey(pool, key, 'sandbox'),
      addEnvironmentOperatorKey(pool, key, 'sandbox'),
      addEnvironmentOperatorKey(pool, key, 'sandbox'),
    ]);
    expect(added).toEqual(['sandbox', 'sandbox', 'sandbox']);
    const { rows } = await pool.query('SELECT name, prefix, environment, revoked_at FROM gateway.operator_keys WHERE hash = $1', [
      hashApiKey(key),
    ]);
    expect(rows).toEqual([
      { name: 'environment', prefix: `env_${hashApiKey(key).slice(0, 12)}`, environment: 'sandbox', revoked_at: null },
    ]);
  });

  it('a second ADMIN_API_KEY is added beside the first (instances mid-rotation), and a revoked one stays revoked', async () => {
    const first = GatewayUnderTest.ADMIN_KEY;
    const second = `second-env-key-${Date.now()}-${'s'.repeat(24)}`;
    await addEnvironmentOperatorKey(pool, first, 'sandbox');
    await addEnvironmentOperatorKey(pool, second, 'sandbox');
    const state = async (key: string) =>
      (await pool.query('SELECT revoked_at FROM gateway.operator_keys WHERE hash = $1', [hashApiKey(key)])).rows[0]?.revoked_at;
    expect([await state(first), await state(second)]).toEqual([null, null]);
    const { rows } = await pool.query('SELECT id FROM gateway.operator_keys WHERE hash = $1', [hashApiKey(second)]);
    await revokeOperatorKey(pool, rows[0].id);
    await addEnvironmentOperatorKey(pool, second, 'sandbox');
    expect(await state(second)).toBeInstanceOf(Date);
    expect(await state(first)).toBeNull();
  });

  it('revokes a key by id (again: unchanged); an unknown or malformed id is null', async () => {
    const { id } = await createOperatorKey(pool, 'to revoke');
    const revoked = await revokeOperatorKey(pool, id);
    expect(revoked?.revoked_at).toBeInstanceOf(Date);
    expect((await revokeOperatorKey(pool, id))?.revoked_at).toEqual(revoked?.revoked_at);
    expect(await revokeOperatorKey(pool, '00000000-0000-4000-8000-000000000000')).toBeNull();
    expect(await revokeOperatorKey(pool, 'nope')).toBeNull();
  });
});
