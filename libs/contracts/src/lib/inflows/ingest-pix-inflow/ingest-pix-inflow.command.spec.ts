import { validateContract } from '@partner/validation';
import { IngestPixInflowCommand } from './ingest-pix-inflow.command';
import { INGEST_PIX_INFLOW_EXAMPLE } from './ingest-pix-inflow.example';

const valid = { ...INGEST_PIX_INFLOW_EXAMPLE, description: 'aluguel' };

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
    expect(validateContract(IngestPixInflowCommand, { ...valid, outcome: 'credited' })).toMatchObject({
      ok: false,
      error: { field: 'outcome' },
    });
  });
});
