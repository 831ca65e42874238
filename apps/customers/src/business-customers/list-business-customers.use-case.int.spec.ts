import { generateCnpj } from '@brazilian-utils/brazilian-utils';
import { BUSINESS_CUSTOMER_EXAMPLE, ListBusinessCustomersQuery, PartnerId } from '@partner/contracts';
import { loadConfig } from '@partner/config';
import { allReplyPages, newUuid, testPartnerId } from '@partner/testing';
import { Database } from '@partner/db';
import { DB_SCHEMA } from '../database/db-schema';
import { CustomersConfig } from '../config/customers.config';
import { CustomerRepository } from './customer.repository';
import { ListBusinessCustomersUseCase } from './list-business-customers.use-case';

// Integration: the real customers schema in PostgreSQL (npm test migrates it). Each test uses partners of its own.
const db = new Database(loadConfig(CustomersConfig), DB_SCHEMA);
const list = new ListBusinessCustomersUseCase(new CustomerRepository(db));
const BASE = Date.parse('2026-11-20T12:00:00.000Z');

interface Seeded {
  id: string;
  body: Record<string, unknown>;
  atMs: number;
}

/** `count` customers written straight into the table, three to a registration time (ties), external ids "a" and "b" in turn. */
async function seed(partnerId: PartnerId, count: number): Promise<Seeded[]> {
  const rows: Seeded[] = [];
  for (let i = 0; i < count; i++) {
    const body = {
      ...structuredClone(BUSINESS_CUSTOMER_EXAMPLE),
      cnpj: generateCnpj({ version: 2 }),
      metadata: { external_id: i % 2 === 0 ? 'a' : 'b' },
    };
    const seeded = { id: newUuid(), body, atMs: BASE + Math.floor(i / 3) * 1000 };
    await db.query(
      'INSERT INTO customers.customers (id, partner_id, cnpj, legal_name, external_id, body, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)',
      [seeded.id, partnerId, body.cnpj, body.legal_name, body.metadata.external_id, JSON.stringify(body), new Date(seeded.atMs)],
    );
    rows.push(seeded);
  }
  return rows;
}

/** The items the rows should be listed as, newest first (registration time, then id): each as GET .../{id} answers it. */
const asItems = (rows: Seeded[]) =>
  [...rows]
    .sort((a, b) => b.atMs - a.atMs || (b.id < a.id ? -1 : 1))
    .map((r) => ({ id: r.id, ...r.body, created_at: Math.floor(r.atMs / 1000) }));

const everyPage = (query: Omit<ListBusinessCustomersQuery, 'cursor'>) =>
  allReplyPages('customers', (cursor) => list.execute({ ...query, cursor }));

afterAll(() => db.close());

describe('ListBusinessCustomersUseCase (PostgreSQL)', () => {
  it("pages through the partner's customers newest first, ties on created_at broken by id, each as registered", async () => {
    const partnerId = testPartnerId();
    const rows = await seed(partnerId, 11);
    await seed(testPartnerId(), 3);
    const { items, pages } = await everyPage({ partner_id: partnerId, limit: 2 });
    expect(items).toEqual(asItems(rows));
    expect(pages).toBe(6);
  });

  it('filters by CNPJ and by external_id', async () => {
    const partnerId = testPartnerId();
    const rows = await seed(partnerId, 7);
    const cnpj = String(rows[3].body.cnpj);
    expect((await everyPage({ partner_id: partnerId, cnpj })).items).toEqual(asItems([rows[3]]));
    expect((await everyPage({ partner_id: partnerId, external_id: 'b', limit: 1 })).items).toEqual(
      asItems(rows.filter((_, i) => i % 2 === 1)),
    );
    expect((await everyPage({ partner_id: partnerId, cnpj, external_id: 'a' })).items).toEqual([]);
    expect((await everyPage({ partner_id: partnerId, external_id: 'c' })).items).toEqual([]);
  });

  it("never answers another partner's customers, and refuses a cursor used by another partner or with other filters", async () => {
    const partnerId = testPartnerId();
    const other = testPartnerId();
    const rows = await seed(partnerId, 4);
    expect((await everyPage({ partner_id: other, cnpj: String(rows[0].body.cnpj) })).items).toEqual([]);
    const first = await list.execute({ partner_id: partnerId, limit: 1 });
    const cursor = first.ok ? (first.data.next_cursor ?? undefined) : undefined;
    expect(cursor).toEqual(expect.any(String));
    const refused = { ok: false, error: { code: 'invalid_request', field: 'cursor', message: expect.any(String) } };
    expect(await list.execute({ partner_id: other, cursor })).toEqual(refused);
    expect(await list.execute({ partner_id: partnerId, cursor, external_id: 'a' })).toEqual(refused);
  });
});
