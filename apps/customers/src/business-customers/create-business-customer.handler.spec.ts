import { BUSINESS_CUSTOMER_EXAMPLE, CreateBusinessCustomerCommand, ok } from '@partner/contracts';
import { newUuid } from '@partner/testing';
import { CreateBusinessCustomerHandler } from './create-business-customer.handler';
import { CreateBusinessCustomerUseCase } from './create-business-customer.use-case';

/** A use case that answers with the idempotency key, else the CNPJ, it was given, so a test sees what reached it. */
const echo: Pick<CreateBusinessCustomerUseCase, 'execute'> = {
  execute: async (c) => ok({ id: c.idempotency_key ?? c.cnpj, replayed: false }),
};
const handler = new CreateBusinessCustomerHandler(echo);
const handle = (payload: unknown) => handler.handle(payload as CreateBusinessCustomerCommand);

describe('CreateBusinessCustomerHandler', () => {
  it('validates the command with the same class as the gateway before the use case runs', async () => {
    const valid = { ...BUSINESS_CUSTOMER_EXAMPLE, partner_id: newUuid() };
    expect(await handle(valid)).toEqual({ ok: true, data: { id: BUSINESS_CUSTOMER_EXAMPLE.cnpj, replayed: false } });
    expect(await handle({ ...valid, cnpj: '12ABC34501DE36' })).toMatchObject({ ok: false, error: { code: 'invalid_cnpj', field: 'cnpj' } });
    const badOwner = { ...valid, owners: [{ ...BUSINESS_CUSTOMER_EXAMPLE.owners[0], document: '52998224724' }] };
    expect(await handle(badOwner)).toMatchObject({ ok: false, error: { code: 'invalid_owner', field: 'owners.0.document' } });
  });

  it('takes a representative who owns 0 bps beside an owner of 100%; refuses a trunk-zero phone and the all-zeros CEP', async () => {
    const valid = { ...BUSINESS_CUSTOMER_EXAMPLE, partner_id: newUuid() };
    const [partner, representative] = BUSINESS_CUSTOMER_EXAMPLE.owners;
    const owners = [
      { ...partner, ownership: { ownership_type: 'direct', ownership_bps: 10_000 } },
      { ...representative, ownership: { ownership_type: 'indirect', ownership_bps: 0 } },
    ];
    expect(await handle({ ...valid, owners })).toEqual({ ok: true, data: { id: BUSINESS_CUSTOMER_EXAMPLE.cnpj, replayed: false } });
    expect(await handle({ ...valid, phone: '+5501133334444' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_phone', field: 'phone' },
    });
    expect(await handle({ ...valid, address: { ...valid.address, postal_code: '00000000' } })).toMatchObject({
      ok: false,
      error: { code: 'invalid_request', field: 'address.postal_code' },
    });
  });

  it('takes the idempotency key as an optional field of the command, checked as the gateway checks the header', async () => {
    const valid = { ...BUSINESS_CUSTOMER_EXAMPLE, partner_id: newUuid() };
    for (const key of ['!', '~'.repeat(255), 'order-42:retry']) {
      expect(await handle({ ...valid, idempotency_key: key })).toEqual({ ok: true, data: { id: key, replayed: false } });
    }
    for (const key of ['', 'k'.repeat(256), 'with space', 'ação', 42]) {
      expect(await handle({ ...valid, idempotency_key: key })).toMatchObject({
        ok: false,
        error: { code: 'invalid_request', field: 'idempotency_key' },
      });
    }
  });

  it('refuses a command without its partner', async () => {
    expect(await handle(BUSINESS_CUSTOMER_EXAMPLE)).toMatchObject({ ok: false, error: { code: 'invalid_request', field: 'partner_id' } });
  });
});
