import { validateContract } from '@partner/validation';
import { IngestPixInflowCommand } from './ingest-pix-inflow.command';

const valid = {
  partner_id: '7a0d1a2e-8a43-4c1e-9a0b-3f5c2a1d9e10',
  document: '52998224725',
  end_to_end_id: 'E60701190202611260430Ab12Cd34Ef5',
  amount_cents: 25_000,
  method: 'manual',
  description: 'aluguel',
  sender_name: 'Maria Souza',
  sender_tax_id: '39053344705',
  sender_account_number: '12345678',
  sender_account_type: 'checking',
  sender_bank_code: '60701190',
  sender_branch_code: '0001',
  status: 'processing',
};

describe('IngestPixInflowCommand', () => {
  it('takes a notification with every field, description optional', () => {
    expect(validateContract(IngestPixInflowCommand, valid)).toMatchObject({ ok: true });
    const { description: _, ...withoutDescription } = valid;
    expect(validateContract(IngestPixInflowCommand, withoutDescription)).toMatchObject({ ok: true });
  });

  it.each([
    ['document', '52998224724'],
    ['amount_cents', 0],
    ['description', ''],
    ['end_to_end_id', 'E1'],
    ['status', 'settled'],
    ['sender_bank_code', '123'],
    ['partner_id', 'acme'],
  ])('refuses a bad %s, naming it (the CPF, amount and description by the sandbox Pix rules)', (field, value) => {
    expect(validateContract(IngestPixInflowCommand, { ...valid, [field]: value })).toMatchObject({ ok: false, error: { field } });
  });

  it('refuses a missing sender field and unknown fields', () => {
    const { sender_name: _, ...missing } = valid;
    expect(validateContract(IngestPixInflowCommand, missing)).toMatchObject({ ok: false, error: { field: 'sender_name' } });
    expect(validateContract(IngestPixInflowCommand, { ...valid, outcome: 'credited' })).toMatchObject({ ok: false, error: { field: 'outcome' } });
  });
});
