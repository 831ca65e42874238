// Replaced by the customers implementation (issue #3).
import { BusinessCustomersHandler } from './business-customers.handler';

describe('BusinessCustomersHandler', () => {
  it('refuses a command without its partner', async () => {
    const invalid = { cnpj: '11222333000181' } as never;
    expect(await new BusinessCustomersHandler().create(invalid)).toMatchObject({ ok: false, error: { code: 'invalid_request', field: 'partner_id' } });
  });
});
