import { ListPixKeysQuery, PartnerId, PixKeyState } from '@partner/contracts';
import { allReplyPages, newCpf, newUuid, testPartnerId } from '@partner/testing';
import { Database } from '@partner/db';
import { DB_SCHEMA } from '../database/db-schema';
import { specConfig } from './pix-key-commands.spec-support';
import { ListPixKeysUseCase } from './list-pix-keys.use-case';
import { PixKeyRepository } from './pix-key.repository';

// Integration: the real pix_keys schema in PostgreSQL (npm test migrates it). Each test uses partners of its own.
const db = new Database(specConfig(), DB_SCHEMA);
const list = new ListPixKeysUseCase(new PixKeyRepository(db));
const STATES: PixKeyState[] = ['pending', 'registered', 'failed', 'deleting', 'canceled'];
/** At most one active key per user (the partial unique index): each user's is one of these in turn. */
const ACTIVE: PixKeyState[] = ['registered', 'pending', 'deleting'];
const BASE = Date.parse('2026-11-20T12:00:00.000Z');

interface Seeded {
  id: string;
  document: string;
  state: PixKeyState;
  atMs: number;
}

/**
 * `users` users with three or four keys each, all ended but the last (canceled, failed, canceled, then an
 * active one), written straight into the tables; four keys to a creation time, so many share one (ties).
 */
async function seed(partnerId: PartnerId, users: number): Promise<Seeded[]> {
  const rows: Seeded[] = [];
  for (let u = 0; u < users; u++) {
    const document = newCpf();
    await db.query('INSERT INTO pix_keys.users (partner_id, document) VALUES ($1, $2)', [partnerId, document]);
    for (const state of ['canceled', 'failed', 'canceled', ACTIVE[u % ACTIVE.length]].slice(u % 2) as PixKeyState[]) {
      const seeded = { id: newUuid(), document, state, atMs: BASE + Math.floor(rows.length / 4) * 1000 };
      await db.query(
        'INSERT INTO pix_keys.pix_keys (id, partner_id, document, key, state, created_at, updated_at) VALUES ($1, $2, $3::text, $3::text, $4, $5, $5)',
        [seeded.id, partnerId, document, state, new Date(seeded.atMs)],
      );
      rows.push(seeded);
    }
  }
  return rows;
}

const everyPage = (query: Omit<ListPixKeysQuery, 'cursor'>) => allReplyPages('pix_keys', (cursor) => list.execute({ ...query, cursor }));

/**
 * The items the rows should be listed as, newest first: creation time, then id (UUIDs compare as PostgreSQL
 * compares them, their hex digits in order). Items have no id, so the order shows in document and status.
 */
const asItems = (rows: Seeded[]) =>
  [...rows]
    .sort((a, b) => b.atMs - a.atMs || (b.id < a.id ? -1 : 1))
    .map((r) => ({
      document: r.document,
      key_type: 'cpf',
      key: r.document,
      status: r.state,
      created_at: Math.floor(r.atMs / 1000),
      last_updated_at: Math.floor(r.atMs / 1000),
    }));

afterAll(() => db.close());

describe('ListPixKeysUseCase (PostgreSQL)', () => {
  it('pages through every key the partner asked for, ended ones included, newest first with ties on created_at', async () => {
    const partnerId = testPartnerId();
    const rows = await seed(partnerId, 5);
    await seed(testPartnerId(), 2);
    const { items, pages } = await everyPage({ partner_id: partnerId, limit: 3 });
    expect(items).toEqual(asItems(rows));
    expect(items).toHaveLength(18);
    expect(pages).toBe(6);
    expect(new Set(items.map((k) => k.status))).toEqual(new Set(STATES));
  });

  it('filters by state and by user, alone and together', async () => {
    const partnerId = testPartnerId();
    const rows = await seed(partnerId, 4);
    expect((await everyPage({ partner_id: partnerId, status: 'canceled', limit: 1 })).items).toEqual(
      asItems(rows.filter((r) => r.state === 'canceled')),
    );
    const document = rows[0].document;
    expect((await everyPage({ partner_id: partnerId, document, limit: 2 })).items).toEqual(
      asItems(rows.filter((r) => r.document === document)),
    );
    expect((await everyPage({ partner_id: partnerId, document, status: 'registered' })).items).toEqual(
      asItems(rows.filter((r) => r.document === document && r.state === 'registered')),
    );
    expect((await everyPage({ partner_id: partnerId, document: newCpf() })).items).toEqual([]);
  });

  it("never answers another partner's keys, and refuses a cursor used by another partner or with other filters", async () => {
    const partnerId = testPartnerId();
    const other = testPartnerId();
    const rows = await seed(partnerId, 2);
    await seed(other, 2);
    expect((await everyPage({ partner_id: other, document: rows[0].document })).items).toEqual([]);
    const first = await list.execute({ partner_id: partnerId, limit: 2 });
    const cursor = first.ok ? (first.data.next_cursor ?? undefined) : undefined;
    expect(cursor).toEqual(expect.any(String));
    const refused = { ok: false, error: { code: 'invalid_request', field: 'cursor', message: expect.any(String) } };
    expect(await list.execute({ partner_id: other, cursor })).toEqual(refused);
    expect(await list.execute({ partner_id: partnerId, cursor, status: 'pending' })).toEqual(refused);
  });
});
