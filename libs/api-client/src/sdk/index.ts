// The SDK's public surface: what the npm package (@partner-service/sdk, `npm run sdk:pack`) exports.
export { PartnerClient, type PartnerClientOptions } from './partner-client';
export type { CallOptions } from './http-transport';
export type { RetryOptions } from './retry-policy';
export { Paginator } from './paginator';
export { PartnerApiError, PartnerNetworkError, PartnerSdkError, PartnerTimeoutError } from './sdk-errors';
export type { StreamEventsOptions } from './resources/events.resource';
export type { BalancesResource } from './resources/balances.resource';
export type { LimitsResource } from './resources/limits.resource';
export type { AddressesResource } from './resources/addresses.resource';
export type { CustomersResource } from './resources/customers.resource';
export type { EventsResource } from './resources/events.resource';
export type { PixInflowsResource } from './resources/pix-inflows.resource';
export type { PixKeysResource } from './resources/pix-keys.resource';
export type { WithdrawalsResource } from './resources/withdrawals.resource';
export type * from './sdk.types';
export type { components, operations, paths } from '../generated/partner-api';
