import type { PartnerClient } from './partner-client';
import { PartnerApiError } from './sdk-errors';

// Type tests (*.type-spec.ts, never run): each line under a ts-expect-error directive fails
// `tsc -p tsconfig.json` if the SDK stops refusing what the API does not accept.
export async function partnerClientTyping(client: PartnerClient): Promise<unknown[]> {
  const request = {
    document: '52998224725',
    address: '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045',
    usdtmicros: 1_000_000,
    fee_choice: 'MEDIUM',
    network: 'MATIC',
  } as const;
  const { id, idempotency_key } = await client.withdrawals.create(request); // the key is optional: the SDK makes one
  // @ts-expect-error fee_choice is LOW, MEDIUM or HIGH
  await client.withdrawals.create({ ...request, fee_choice: 'ULTRA' });
  // @ts-expect-error usdtmicros is a number of micros, not a string
  await client.withdrawals.create({ ...request, usdtmicros: '1000000' });
  // @ts-expect-error a withdrawal's id is a number
  await client.withdrawals.get('1');
  // @ts-expect-error no such withdrawal state
  client.withdrawals.list({ state: 'done' });
  // @ts-expect-error the feed's types are usdt_withdrawal, pix_key, pix_in and business_customer
  client.events.stream({ type: 'withdrawal' });
  for await (const event of client.events.list({ delivered: false })) {
    // Events are told apart by `type`, each with the data of its type.
    if (event.type === 'usdt_withdrawal') void (event.data.usdtmicros satisfies number);
    // @ts-expect-error a Pix key event carries no amount
    if (event.type === 'pix_key') void event.data.usdtmicros;
  }
  const balance = await client.balances.get(request.document);
  const error = new Error() as unknown;
  const code: string | undefined = error instanceof PartnerApiError ? error.code : undefined;
  return [id, idempotency_key, balance.available_usdt_micros satisfies number, code];
}

// The list filters are the routes' own (docs/openapi.json): each wrong name or value below must not compile.
export function listFilterTyping(client: PartnerClient): unknown[] {
  return [
    client.withdrawals.list({
      state: 'settled',
      created_from: '2026-11-01T00:00:00-03:00',
      created_to: '2026-12-01T00:00:00Z',
      document: '52998224725',
    }),
    // @ts-expect-error created_from is an ISO 8601 date-time, not Unix seconds
    client.withdrawals.list({ created_from: 1_795_315_285 }),
    client.pixKeys.list({ status: 'canceled', document: '52998224725' }),
    // @ts-expect-error a Pix key is pending, registered, failed, deleting or canceled
    client.pixKeys.list({ status: 'active' }),
    client.customers.list({ cnpj: '12ABC34501DE35', external_id: 'acme-001' }),
    // @ts-expect-error customers are filtered by external_id, not externalId
    client.customers.list({ externalId: 'acme-001' }),
  ];
}
