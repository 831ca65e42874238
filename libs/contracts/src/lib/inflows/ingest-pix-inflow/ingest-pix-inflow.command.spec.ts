import { validateContract } from '@partner/validation';
import { IngestPixInflowCommand } from './ingest-pix-inflow.command';
import { INGEST_PIX_INFLOW_EXAMPLE } from './ingest-pix-inflow.example';

const valid = { ...INGEST_PIX_INFLOW_EXAMPLE, description: 'aluguel' };
const account = INGEST_PIX_INFLOW_EXAMPLE.receiver_account;

describe('IngestPixInflowCommand (v2: by the receiving account)', () => {
  it('takes a notification with every field, description optional', () => {
    expect(validateContract(IngestPixInflowCommand, valid)).toMatchObject({ ok: true });
    const { description: _, ...withoutDescription } = valid;
    expect(validateContract(IngestPixInflowCommand, withoutDescription)).toMatchObject({ ok: true });
  });

  it.each([
    ['amount_cents', 0],
    ['description', ''],
    ['end_to_end_id', 'E1'],
    ['status', 'settled'],
    ['sender_bank_code', '123'],
    ['receiver_key', 'not a key'],
    ['receiver_key', 'Maria@Example.com'],
    ['receiver_key', 'x'.repeat(71) + '@ex.com'],
  ])('refuses a bad %s, naming it', (field, value) => {
    expect(validateContract(IngestPixInflowCommand, { ...valid, [field]: value })).toMatchObject({ ok: false, error: { field } });
  });

  it.each([
    ['ispb', '1234567'],
    ['ispb', 12345678],
    ['branch', '1'],
    ['branch', '00001'],
    ['number', ''],
    ['number', '1'.repeat(21)],
    ['number', '12345-6'],
    ['type', 'checking'],
  ])('refuses a receiving account with a bad %s (%p), naming receiver_account.<field>', (field, value) => {
    expect(validateContract(IngestPixInflowCommand, { ...valid, receiver_account: { ...account, [field]: value } })).toMatchObject({
      ok: false,
      error: { code: 'invalid_request', field: `receiver_account.${field}` },
    });
  });

  it('refuses a receiving account that is missing, not an object, incomplete or with unknown fields', () => {
    const { receiver_account: _, ...missing } = valid;
    const { number: _number, ...incomplete } = account;
    for (const [body, field] of [
      [missing, 'receiver_account'],
      [{ ...valid, receiver_account: '99999999/0001/100000002' }, 'receiver_account'],
      [{ ...valid, receiver_account: [account] }, 'receiver_account'],
      [{ ...valid, receiver_account: incomplete }, 'receiver_account.number'],
      [{ ...valid, receiver_account: { ...account, holder: 'x' } }, 'receiver_account.holder'],
    ] as const)
      expect(validateContract(IngestPixInflowCommand, body)).toMatchObject({ ok: false, error: { field } });
  });

  it('needs the key for a Pix by key (dict) only; every DICT key type is taken', () => {
    const { receiver_key: _, ...withoutKey } = valid;
    expect(validateContract(IngestPixInflowCommand, withoutKey)).toMatchObject({ ok: false, error: { field: 'receiver_key' } });
    expect(validateContract(IngestPixInflowCommand, { ...withoutKey, method: 'manual' })).toMatchObject({ ok: true });
    for (const key of [
      '52998224725',
      '11222333000181',
      '+5511987654321',
      'maria.souza@example.com.br',
      '9b2f6c1e-3d4a-4e5f-8a6b-7c8d9e0f1a2b',
    ])
      expect(validateContract(IngestPixInflowCommand, { ...valid, receiver_key: key })).toMatchObject({ ok: true });
  });

  it('refuses the retired v1 receiver (partner_id and document) and other unknown fields', () => {
    expect(validateContract(IngestPixInflowCommand, { ...valid, partner_id: '7a0d1a2e-8a43-4c1e-9a0b-3f5c2a1d9e10' })).toMatchObject({
      ok: false,
      error: { field: 'partner_id', message: 'unknown field partner_id' },
    });
    expect(validateContract(IngestPixInflowCommand, { ...valid, document: '52998224725' })).toMatchObject({
      ok: false,
      error: { field: 'document' },
    });
    const { sender_name: _, ...missing } = valid;
    expect(validateContract(IngestPixInflowCommand, missing)).toMatchObject({ ok: false, error: { field: 'sender_name' } });
  });
});
