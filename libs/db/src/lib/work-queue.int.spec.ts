import { Pool } from 'pg';
import { requireEnv } from '@partner/testing';
import { runStatement, Queryable, Statement } from './unit-of-work';
import { WorkQueue } from './work-queue';

// A table of its own, in a schema of its own, so the spec needs nothing of any service's.
const schema = `work_queue_spec_${process.pid}`;
const pool = new Pool({ connectionString: requireEnv('DATABASE_URL'), max: 4, options: `-c search_path=${schema}` });
const db: Queryable = { query: (s: Statement | string, values?: unknown[]) => runStatement(pool, s, values) };

const queue = new WorkQueue({ name: 'spec_jobs', table: 'jobs', workable: "state = 'open'", tieBreak: 'id' });
const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s));

interface Job {
  id: string;
  state: string;
  attempts: number;
  next_attempt_at: Date | null;
  last_error: string | null;
}

beforeAll(async () => {
  await pool.query(`CREATE SCHEMA ${schema}`);
  await pool.query(
    `CREATE TABLE jobs (id bigserial PRIMARY KEY, state text NOT NULL DEFAULT 'open', attempts int NOT NULL DEFAULT 0,
                        next_attempt_at timestamptz, last_error text)`,
  );
});
beforeEach(() => pool.query('TRUNCATE jobs RESTART IDENTITY'));
afterAll(async () => {
  await pool.query(`DROP SCHEMA ${schema} CASCADE`);
  await pool.end();
});

const addJobs = (n: number, dueAt: Date | null = null) =>
  pool.query('INSERT INTO jobs (next_attempt_at) SELECT $1 FROM generate_series(1, $2::int)', [dueAt, n]);
const job = async (id: string) => (await pool.query<Job>('SELECT * FROM jobs WHERE id = $1', [id])).rows[0];

describe('WorkQueue (PostgreSQL)', () => {
  it('claims what is due and workable, oldest due first, counting the attempt and leasing the row', async () => {
    await addJobs(1, at(5));
    await addJobs(1, null);
    await addJobs(1, at(50));
    await pool.query(`INSERT INTO jobs (state) VALUES ('done')`);
    const claimed = await queue.claim<Job>(db, at(10), at(40), 10);
    expect(claimed.map((j) => [j.id, j.attempts])).toEqual([
      ['2', 1],
      ['1', 1],
    ]);
    expect(claimed.every((j) => j.next_attempt_at?.getTime() === at(40).getTime())).toBe(true);
    // Leased: not due again before the lease ends, due again after it (the attempt died).
    expect(await queue.claim<Job>(db, at(39), at(70), 10)).toEqual([]);
    expect((await queue.claim<Job>(db, at(40), at(70), 10)).map((j) => [j.id, j.attempts])).toEqual([
      ['1', 2],
      ['2', 2],
    ]);
  });

  it('never gives one row to two claims at once (SKIP LOCKED), across connections', async () => {
    await addJobs(200);
    const claims = await Promise.all(Array.from({ length: 8 }, () => queue.claim<Job>(db, at(0), at(60), 30)));
    const ids = claims.flat().map((j) => j.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBe(200);
    expect((await pool.query('SELECT DISTINCT attempts FROM jobs')).rows).toEqual([{ attempts: 1 }]);
  });

  it('settles only for the attempt that holds the row: a superseded attempt changes nothing', async () => {
    await addJobs(1);
    const [first] = await queue.claim<Job>(db, at(0), at(10), 1);
    const [second] = await queue.claim<Job>(db, at(10), at(20), 1);
    expect(await queue.retryLater(db, first, at(100), 'late')).toBe(false);
    expect(await queue.retryLater(db, second, at(30), 'DICT 503')).toBe(true);
    expect(await job('1')).toMatchObject({ attempts: 2, next_attempt_at: at(30), last_error: 'DICT 503' });
    // A row no longer workable (settled meanwhile) is not the attempt's either.
    await pool.query(`UPDATE jobs SET state = 'done'`);
    expect(await queue.retryLater(db, second, at(40), 'x')).toBe(false);
  });

  it('gives settling statements the same guard, and a reset of its state', async () => {
    await addJobs(1);
    const [held] = await queue.claim<Job>(db, at(0), at(10), 1);
    await pool.query(`UPDATE jobs SET last_error = 'x' WHERE id = 1`);
    const settle = `UPDATE jobs SET state = 'done', ${queue.cleared} WHERE ${queue.heldBy(1, 2)}`;
    expect((await pool.query(settle, [held.id, held.attempts + 1])).rowCount).toBe(0);
    expect((await pool.query(settle, [held.id, held.attempts])).rowCount).toBe(1);
    expect(await job('1')).toMatchObject({ state: 'done', attempts: 0, next_attempt_at: null, last_error: null });
    expect(await queue.claim<Job>(db, at(100), at(110), 1)).toEqual([]);
  });

  it('works on a table that keeps no failure text (lastError: null): retryLater moves the due time only', async () => {
    await pool.query(`CREATE TABLE IF NOT EXISTS quiet_jobs (id bigserial PRIMARY KEY, state text NOT NULL DEFAULT 'open',
                        attempts int NOT NULL DEFAULT 0, next_attempt_at timestamptz)`);
    const quiet = new WorkQueue({ name: 'spec_quiet_jobs', table: 'quiet_jobs', workable: "state = 'open'", columns: { lastError: null } });
    const { rows } = await pool.query<{ id: string }>('INSERT INTO quiet_jobs DEFAULT VALUES RETURNING id');
    const [held] = await quiet.claim<Job>(db, at(0), at(10), 1);
    expect(held).toMatchObject({ id: rows[0].id, attempts: 1 });
    expect(await quiet.retryLater(db, held, at(30), 'DICT 503')).toBe(true);
    expect(await quiet.retryLater(db, { ...held, attempts: 2 }, at(40), 'late')).toBe(false);
    const [row] = (await pool.query('SELECT * FROM quiet_jobs WHERE id = $1', [held.id])).rows;
    expect(row).toEqual({ id: held.id, state: 'open', attempts: 1, next_attempt_at: at(30) });
    expect(quiet.cleared).toBe('attempts = 0, next_attempt_at = NULL');
  });
});
