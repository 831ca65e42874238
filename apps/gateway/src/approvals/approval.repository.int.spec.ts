import { loadConfig } from '@partner/config';
import { Database } from '@partner/db';
import { newCpf, newUuid, requireEnv, testPartnerId } from '@partner/testing';
import { GatewayConfig } from '../config/gateway.config';
import { DB_SCHEMA } from '../database/db-schema';
import { ApprovalRepository, NewApproval } from './approval.repository';

// Integration against the real gateway schema (npm test migrates it): the requests of dual control.
const db = new Database(loadConfig(GatewayConfig, { ...process.env, DATABASE_URL: requireEnv('DATABASE_URL') }), DB_SCHEMA);
const approvals = new ApprovalRepository(db);
afterAll(() => db.onApplicationShutdown());

const asker = { keyId: newUuid(), name: 'ops (adm_asker)', address: '203.0.113.7' };
const second = { keyId: newUuid(), name: 'risk (adm_second)', address: '198.51.100.4' };
const newApproval = (): NewApproval => ({
  id: newUuid(),
  partnerId: testPartnerId(),
  document: newCpf(),
  usdtMicros: 25_000_000_000,
  idempotencyKey: `deposit-${newUuid()}`,
  reference: 'TED 4411',
});

describe('ApprovalRepository (PostgreSQL)', () => {
  it("records a request once per partner's key; a second request under it inserts nothing", async () => {
    const a = newApproval();
    expect(await approvals.request(a, asker)).toMatchObject({
      id: a.id,
      status: 'pending_approval',
      requestedBy: asker.name,
      decidedBy: null,
    });
    expect(await approvals.request({ ...a, id: newUuid(), usdtMicros: 1 }, asker)).toBeNull();
    expect(await approvals.findByKey(a.partnerId, a.idempotencyKey)).toMatchObject({ id: a.id, usdtMicros: a.usdtMicros });
  });

  it('is decided once, by another key than the one that asked', async () => {
    const a = newApproval();
    await approvals.request(a, asker);
    expect(await approvals.decide(a.id, 'approved', asker, null)).toBeNull();
    expect(await approvals.decide(a.id, 'approved', second, 'seen on the statement')).toMatchObject({
      status: 'approved',
      decidedBy: second.name,
      note: 'seen on the statement',
    });
    expect(await approvals.decide(a.id, 'rejected', second, null)).toBeNull();
    expect((await approvals.findById(a.id))?.status).toBe('approved');
  });

  it('a decided approval cannot be changed, and no approval can be deleted, even by SQL of its own service', async () => {
    const a = newApproval();
    await approvals.request(a, asker);
    await expect(db.query('DELETE FROM approvals WHERE id = $1', [a.id])).rejects.toThrow(/kept for good: DELETE refused/);
    await approvals.decide(a.id, 'rejected', second, null);
    await expect(db.query(`UPDATE approvals SET status = 'approved' WHERE id = $1`, [a.id])).rejects.toThrow(/UPDATE refused/);
    await expect(db.query(`UPDATE approvals SET decided_by_key_id = requested_by_key_id WHERE id = $1`, [a.id])).rejects.toThrow();
    expect((await approvals.findById(a.id))?.status).toBe('rejected');
  });

  it('the table itself refuses an approval decided by the key that asked', async () => {
    const a = newApproval();
    await approvals.request(a, asker);
    await expect(
      db.query(
        `UPDATE approvals SET status = 'approved', decided_by_key_id = requested_by_key_id, decided_by = 'x', decided_at = now() WHERE id = $1`,
        [a.id],
      ),
    ).rejects.toThrow(/approvals_second_key_check/);
  });
});
