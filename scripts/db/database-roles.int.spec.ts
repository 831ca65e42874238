import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import { requireEnv } from '@partner/testing';
import { Client } from 'pg';
import { onMaintenanceDb } from '../../offline/prisma/schema-engine';

// Integration with PostgreSQL: the migrate step (scripts/db/migrate.ts) on a scratch database of this run,
// with a password for two services' roles, then what each role may touch. Dropped at the end.

const repoRoot = resolve(__dirname, '..', '..');
const base = new URL(requireEnv('DATABASE_URL'));
const database = `roles_it_${randomBytes(5).toString('hex')}`;
const urlAs = (user?: string, password?: string): string => {
  const url = new URL(base.toString());
  url.pathname = `/${database}`;
  if (user) {
    url.username = user;
    url.password = password ?? '';
  }
  return url.toString();
};

async function asRole<T>(role: string, password: string, work: (c: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: urlAs(role, password) });
  await client.connect();
  return work(client).finally(() => client.end());
}

/** The SQLSTATE a statement fails with, or 'ok'. */
const outcome = (c: Client, sql: string): Promise<string> =>
  c.query(sql).then(
    () => 'ok',
    (e: { code?: string }) => e.code ?? 'error',
  );

beforeAll(() => {
  execFileSync(join(repoRoot, 'node_modules/.bin/tsx'), [join(repoRoot, 'scripts/db/migrate.ts')], {
    cwd: repoRoot,
    stdio: 'pipe',
    env: {
      ...process.env,
      DATABASE_URL: urlAs(),
      DB_PASSWORD_WITHDRAWALS: 'withdrawals-it-password',
      DB_PASSWORD_EVENTS: 'events-it-password',
      DB_PASSWORD_GATEWAY: 'gateway-it-password',
    },
  });
}, 120_000);

afterAll(() => onMaintenanceDb(urlAs(), `DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`));

describe('per-service database roles (the migrate step)', () => {
  it('lets a service read and write the rows of its own schema, and nothing of another service', async () => {
    await asRole('svc_withdrawals', 'withdrawals-it-password', async (c) => {
      expect(await outcome(c, 'SELECT count(*) FROM withdrawals.withdrawals')).toBe('ok');
      expect(await outcome(c, "INSERT INTO withdrawals.outbox_messages (topic, key, payload) VALUES ('t', 'k', '{}')")).toBe('ok');
      expect(await outcome(c, 'DELETE FROM withdrawals.outbox_messages')).toBe('ok');
      // 42501 insufficient_privilege: another service's tables, and the schema's shape.
      expect(await outcome(c, 'SELECT count(*) FROM events.feed_events')).toBe('42501');
      expect(await outcome(c, 'SELECT count(*) FROM gateway.partners')).toBe('42501');
      expect(await outcome(c, 'CREATE TABLE withdrawals.intruder (id int)')).toBe('42501');
      expect(await outcome(c, 'DROP TABLE withdrawals.withdrawals')).toBe('42501');
    });
    await asRole('svc_events', 'events-it-password', async (c) => {
      expect(await outcome(c, 'SELECT count(*) FROM events.feed_events')).toBe('ok');
      expect(await outcome(c, 'SELECT count(*) FROM withdrawals.accounts')).toBe('42501');
    });
  });

  it('grants a role its own schema only, and nothing to the role of a service given no password', async () => {
    const db = new Client({ connectionString: urlAs() });
    await db.connect();
    try {
      const schemasGranted = async (role: string) =>
        (
          await db.query<{ schema: string }>(
            'SELECT DISTINCT table_schema AS schema FROM information_schema.role_table_grants WHERE grantee = $1',
            [role],
          )
        ).rows.map((r) => r.schema);
      expect(await schemasGranted('svc_withdrawals')).toEqual(['withdrawals']);
      expect(await schemasGranted('svc_events')).toEqual(['events']);
      // No DB_PASSWORD_CUSTOMERS: that service connects as the owner (the local stack does).
      expect(await schemasGranted('svc_customers')).toEqual([]);
    } finally {
      await db.end();
    }
  });

  it("withholds from the gateway's role what would rewrite its records: the audit log's rows, an approval's removal", async () => {
    await asRole('svc_gateway', 'gateway-it-password', async (c) => {
      const audit = `INSERT INTO gateway.audit_log (method, route, status_code, request_id) VALUES ('GET', '/admin/v1/x', 200, 'r1')`;
      expect(await outcome(c, audit)).toBe('ok');
      expect(await outcome(c, 'SELECT count(*) FROM gateway.audit_log')).toBe('ok');
      // 42501 insufficient_privilege: refused before any trigger runs, TRUNCATE (which row triggers never see) included.
      expect(await outcome(c, 'UPDATE gateway.audit_log SET status_code = 500')).toBe('42501');
      expect(await outcome(c, 'DELETE FROM gateway.audit_log')).toBe('42501');
      expect(await outcome(c, 'TRUNCATE gateway.audit_log')).toBe('42501');
      expect(await outcome(c, 'SELECT count(*) FROM gateway.approvals')).toBe('ok');
      expect(await outcome(c, 'DELETE FROM gateway.approvals')).toBe('42501');
      expect(await outcome(c, 'TRUNCATE gateway.approvals')).toBe('42501');
      // Its other tables as before.
      expect(await outcome(c, 'DELETE FROM gateway.rate_limit_buckets')).toBe('ok');
    });
  });

  it("withholds from the withdrawals service's role any rewrite of its credits' audit rows", async () => {
    await asRole('svc_withdrawals', 'withdrawals-it-password', async (c) => {
      expect(await outcome(c, 'SELECT count(*) FROM withdrawals.audit_log')).toBe('ok');
      expect(await outcome(c, "UPDATE withdrawals.audit_log SET operators = 'someone else'")).toBe('42501');
      expect(await outcome(c, 'DELETE FROM withdrawals.audit_log')).toBe('42501');
      expect(await outcome(c, 'TRUNCATE withdrawals.audit_log')).toBe('42501');
      expect(await outcome(c, 'DELETE FROM withdrawals.refused_commands WHERE false')).toBe('ok');
    });
  });
});
