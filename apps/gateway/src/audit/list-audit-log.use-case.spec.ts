import { AuditFilter, AuditLogRepository, AuditRow } from './audit-log.repository';
import { ListAuditLogUseCase } from './list-audit-log.use-case';

const row = (id: number): AuditRow => ({
  id: String(id),
  occurred_at: new Date(id * 1000),
  operator_key_id: null,
  operator_key_prefix: null,
  method: 'GET',
  route: '/admin/v1/audit-log',
  partner_id: null,
  key_id: null,
  document: null,
  status_code: 401,
  request_id: `r${id}`,
  usdt_micros: null,
  client_address: null,
});

/** The log holds ids 1..n; the repository answers a page as the SQL does (newest first, before, limit). */
function logOf(n: number) {
  const asked: Array<{ limit: number; before?: number }> = [];
  const audit: Pick<AuditLogRepository, 'page'> = {
    page: async ({ limit, before }) => {
      asked.push({ limit, before });
      const ids = Array.from({ length: n }, (_, i) => n - i).filter((id) => before === undefined || id < before);
      return ids.slice(0, limit).map(row);
    },
  };
  return { useCase: new ListAuditLogUseCase(audit), asked };
}

describe('ListAuditLogUseCase', () => {
  it('pages newest first; next_cursor is the oldest id of a page that has an older one, else null', async () => {
    const { useCase, asked } = logOf(5);
    const first = await useCase.execute({ limit: 2 });
    expect(first.entries.map((e) => e.id)).toEqual([5, 4]);
    expect(first.next_cursor).toBe(4);
    const second = await useCase.execute({ limit: 2, before: 4 });
    expect([second.entries.map((e) => e.id), second.next_cursor]).toEqual([[3, 2], 2]);
    const last = await useCase.execute({ limit: 2, before: 2 });
    expect([last.entries.map((e) => e.id), last.next_cursor]).toEqual([[1], null]);
    // One row more than the page, to know whether an older page exists.
    expect(asked[0].limit).toBe(3);
  });

  it('answers 50 entries by default, in the closed shape of the document', async () => {
    const { useCase } = logOf(60);
    const page = await useCase.execute({});
    expect(page.entries).toHaveLength(50);
    expect(page.entries[0]).toEqual({
      id: 60,
      occurred_at: 60,
      operator_key_id: null,
      operator_key_prefix: null,
      method: 'GET',
      route: '/admin/v1/audit-log',
      partner_id: null,
      key_id: null,
      document: null,
      status_code: 401,
      request_id: 'r60',
      usdt_micros: null,
      client_address: null,
    });
    const exact = await logOf(50).useCase.execute({});
    expect(exact.next_cursor).toBeNull();
  });
});

describe('ListAuditLogUseCase filters', () => {
  it('passes partner, operator key and the time range (Unix seconds) to the repository as its filter', async () => {
    const asked: Array<AuditFilter & { limit: number }> = [];
    const audit: Pick<AuditLogRepository, 'page'> = { page: async (filter) => (asked.push(filter), []) };
    const operatorKeyId = '0b6c2a1e-3f5c-4c1e-9a0b-7a0d1a2e8a43';
    const partnerId = '7a0d1a2e-8a43-4c1e-9a0b-3f5c2a1d9e10';
    await new ListAuditLogUseCase(audit).execute({
      limit: 10,
      partner_id: partnerId,
      operator_key_id: operatorKeyId,
      from: 1_795_315_285,
      to: 1_795_315_300,
    });
    expect(asked).toEqual([
      { limit: 11, before: undefined, partnerId, operatorKeyId, from: new Date(1_795_315_285_000), to: new Date(1_795_315_300_000) },
    ]);
  });
});
