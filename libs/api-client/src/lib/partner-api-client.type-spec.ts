import type { Schemas } from '../sdk';
import type { PartnerApiClient } from './partner-api-client';

// Type tests (*.type-spec.ts): tsc checks them with the workspace (`npm test`'s typecheck), Jest never
// runs them. Each line under a ts-expect-error directive fails that check if the client stops refusing
// what the OpenAPI document forbids. Never called: only its types matter.
export async function partnerApiClientTyping(api: PartnerApiClient): Promise<unknown[]> {
  const body: Schemas['CreateUsdtWithdrawalRequest'] = {
    document: '52998224725',
    idempotency_key: '3f1c2d4e-5a6b-4c7d-8e9f-0a1b2c3d4e5f',
    address: '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045',
    usdtmicros: 1_000_000,
    fee_choice: 'MEDIUM',
    network: 'MATIC',
  };
  const created = await api.POST('/partner/v1/withdrawals/usdt', { body });
  const id: number | undefined = created.data?.id;
  // @ts-expect-error a withdrawal's error code is one of the codes documented for it
  const code: 'not_a_documented_code' | undefined = created.error?.error;
  // @ts-expect-error network is required
  await api.POST('/partner/v1/withdrawals/usdt', { body: { ...body, network: undefined } });
  // @ts-expect-error fee_choice is LOW, MEDIUM or HIGH
  await api.POST('/partner/v1/withdrawals/usdt', { body: { ...body, fee_choice: 'ULTRA' } });
  // @ts-expect-error no such route
  await api.GET('/partner/v1/nothing-here');
  const key = await api.POST('/partner/v1/pix-key', { body: { document: body.document, idempotency_key: body.idempotency_key } });
  const accepted: 'accepted' | undefined = key.data?.status;
  // @ts-expect-error a creation answers `accepted` only (already_sent and succeeded are a deletion's)
  const succeeded: 'succeeded' | undefined = key.data?.status;
  const page = await api.GET('/partner/v1/events', { params: { query: { delivered: false, limit: 10 } } });
  for (const event of page.data?.events ?? []) {
    // Events are told apart by `type`, each with the data of its type.
    if (event.type === 'usdt_withdrawal') void (event.data.usdtmicros satisfies number);
    // @ts-expect-error a Pix key event carries no amount
    if (event.type === 'pix_key') void event.data.usdtmicros;
  }
  return [id, code, accepted, succeeded];
}
