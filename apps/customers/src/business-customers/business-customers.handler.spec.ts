import { newUuid } from '@partner/testing';
import { BusinessCustomersHandler } from './business-customers.handler';

describe('BusinessCustomersHandler (skeleton)', () => {
  const handler = new BusinessCustomersHandler();

  it('answers not_implemented for a well-formed command', async () => {
    expect(await handler.create({ partner_id: newUuid(), customer: {} })).toMatchObject({ ok: false, error: { code: 'not_implemented' } });
  });

  it('refuses a command without its partner', async () => {
    const invalid = { customer: {} } as never;
    expect(await handler.create(invalid)).toMatchObject({ ok: false, error: { code: 'invalid_request', field: 'partner_id' } });
  });
});
