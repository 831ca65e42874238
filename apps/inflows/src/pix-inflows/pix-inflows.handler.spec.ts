import { newUuid } from '@partner/testing';
import { PixInflowsHandler } from './pix-inflows.handler';

describe('PixInflowsHandler (skeleton)', () => {
  const handler = new PixInflowsHandler();

  it('lists no inflows in the spec shape until inflows are recorded', async () => {
    expect(await handler.list({ partner_id: newUuid() })).toEqual({ ok: true, data: { pix_in: [] } });
  });

  it('refuses a listing that is not scoped to a partner', async () => {
    expect(await handler.list({ partner_id: 'nobody' })).toMatchObject({ ok: false, error: { code: 'invalid_request', field: 'partner_id' } });
  });
});
