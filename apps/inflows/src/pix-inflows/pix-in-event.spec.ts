import { PixInStateChangedEvent, Topics } from '@partner/contracts';
import { validateContract } from '@partner/validation';
import { newCpf, PIX_IN_SPEC_FIELDS, testPartnerId } from '@partner/testing';
import { pixInStateChanged, toPixInflow } from './pix-in-event';
import { PixInflowRecord } from './pix-inflow.repository';

const record = (overrides: Partial<PixInflowRecord> = {}): PixInflowRecord => ({
  id: 7n,
  partnerId: testPartnerId(),
  document: newCpf(),
  endToEndId: 'E60701190202611222359AbCdE123456',
  amountCents: 15_050n,
  description: 'aluguel',
  method: 'dict',
  senderName: 'Ana Lima',
  senderTaxId: '52998224725',
  senderAccountNumber: '1234567',
  senderAccountType: 'checking',
  senderBankCode: '60701190',
  senderBranchCode: '0341',
  receiverBranch: '0001',
  receiverNumber: '100000002',
  receiverType: 'TRAN',
  receiverKey: '52998224725',
  status: 'approved',
  refundedCents: 0n,
  returnedCents: 0n,
  createdAt: new Date('2026-11-22T23:59:58.900Z'),
  updatedAt: new Date('2026-11-23T00:00:01.200Z'),
  ...overrides,
});

describe('the inflow as partners see it', () => {
  it('has exactly the documented Pix-in fields, in their order, with Unix-second timestamps and integer cents', () => {
    const inflow = toPixInflow(record());
    expect(Object.keys(inflow)).toEqual(PIX_IN_SPEC_FIELDS);
    expect(inflow).toMatchObject({ amount_cents: 15_050, created_at: 1795391998, last_updated_at: 1795392001, status: 'approved' });
  });

  it('leaves description out when the payer sent none', () => {
    const inflow = toPixInflow(record({ description: null }));
    expect(Object.keys(inflow)).toEqual(PIX_IN_SPEC_FIELDS.filter((f) => f !== 'description'));
  });

  it('reports a state change as a valid pix_in event keyed by the inflow, with the receiving user', () => {
    const r = record();
    const message = pixInStateChanged(r);
    expect(message.topic).toBe(Topics.PixInStateChanged);
    expect(message.key).toBe(`pix_in:${r.endToEndId}`);
    expect(validateContract(PixInStateChangedEvent, message.payload)).toMatchObject({ ok: true });
    expect(message.payload).toMatchObject({
      partner_id: r.partnerId,
      type: 'pix_in',
      state: 'approved',
      resource_id: r.endToEndId,
      occurred_at: r.updatedAt.toISOString(),
      resource: { ...toPixInflow(r), document: r.document },
    });
  });
});
