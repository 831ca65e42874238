import { newCpf, newUuid } from '@partner/testing';
import { PixKeysHandler } from './pix-keys.handler';

// The skeleton's contract until issue #3: commands are consumed and validated, and answered honestly.
describe('PixKeysHandler (skeleton)', () => {
  const handler = new PixKeysHandler();
  const command = { partner_id: newUuid(), document: newCpf(), idempotency_key: newUuid() };

  it('answers create and delete with not_implemented, never a false success', async () => {
    expect(await handler.create(command)).toMatchObject({ ok: false, error: { code: 'not_implemented' } });
    expect(await handler.delete(command)).toMatchObject({ ok: false, error: { code: 'not_implemented' } });
  });

  it('validates the payload with the contract class before anything else', async () => {
    const invalid = { ...command, document: '11111111111' };
    expect(await handler.create(invalid)).toMatchObject({ ok: false, error: { code: 'invalid_request', field: 'document' } });
  });
});
