import { ScriptedConnection } from '@partner/testing';
import { appendAuditEntry, AuditEntry } from './audit-log';

describe('appendAuditEntry', () => {
  const entry: AuditEntry = {
    operatorKeyId: 'o1',
    operatorKeyPrefix: 'adm_x',
    method: 'GET',
    route: '/admin/v1/partners/:partner_id/users/:document/balance',
    partnerId: 'p1',
    keyId: null,
    document: null,
    statusCode: 200,
    requestId: 'r1',
  };
  /** The values of the one statement written, as PostgreSQL would receive them. */
  async function written(e: AuditEntry): Promise<unknown[]> {
    const db = new ScriptedConnection();
    await appendAuditEntry(db, e);
    return db.sent[0].values ?? [];
  }

  it.each([
    ['a CPF', '52998224725'],
    ['a formatted CPF', '529.982.247-25'],
    ['a CNPJ', '11.222.333/0001-81'],
  ])('never writes %s in clear: the document is masked', async (_label, document) => {
    const values = await written({ ...entry, document });
    expect(values[6]).toBe('[masked]');
    expect(JSON.stringify(values)).not.toContain(document);
  });

  it.each([
    ['a CPF with a letter before it', 'A52998224725', 'A[masked]'],
    ['a CPF with a digit too many', '529982247250', '[masked]'],
    ['a CPF inside other text', 'xx52998224725yy', 'xx[masked]yy'],
  ])('masks %s in any path parameter, where maskIdentifiers alone would not see a document', async (_label, sent, kept) => {
    const values = await written({ ...entry, partnerId: sent, keyId: sent, document: sent });
    expect([values[4], values[5], values[6]]).toEqual([kept, kept, kept]);
  });

  it('keeps a UUID parameter as it is, digit runs included: it names a partner or a key', async () => {
    const id = '12345678-1234-4234-8234-123456789012';
    expect((await written({ ...entry, partnerId: id, keyId: id })).slice(4, 6)).toEqual([id, id]);
  });

  it('writes every other field as given, and a missing document as null', async () => {
    expect(await written(entry)).toEqual(['o1', 'adm_x', 'GET', entry.route, 'p1', null, null, 200, 'r1', null, null]);
    expect((await written({ ...entry, usdtMicros: 42, clientAddress: '203.0.113.7' })).slice(9)).toEqual([42, '203.0.113.7']);
  });
});
