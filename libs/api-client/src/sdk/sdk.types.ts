import type { components, operations } from '../generated/partner-api';

/** The OpenAPI document's schemas by name, e.g. `Schemas['UsdtWithdrawalEvent']`. */
export type Schemas = components['schemas'];

/** A create call's idempotency key is optional: without one the SDK makes one (a UUID) per call and reuses it on every retry. */
type WithOptionalKey<T extends { idempotency_key: string }> = Omit<T, 'idempotency_key'> & { idempotency_key?: string };

/** The paging parameters of every list (its page: the items under the family's name, and `next_cursor`, null on the last page). */
export type ListQuery = {
  /** Page size (1-1000). */
  limit?: number;
  /** The `next_cursor` of the previous page. */
  cursor?: string;
};

// Withdrawals
export type CreateWithdrawalRequest = WithOptionalKey<Schemas['CreateUsdtWithdrawalRequest']>;
/** The withdrawal's id, and the idempotency key it was created under (yours, or the one the SDK made). */
export type CreateWithdrawalResult = Schemas['CreateUsdtWithdrawalResponse'] & { idempotency_key: string };
export type Withdrawal = Schemas['UsdtWithdrawalView'];
export type WithdrawalState = Withdrawal['state'];
export type ListWithdrawalsQuery = ListQuery & {
  document?: string;
  state?: WithdrawalState;
  /** Unix seconds, inclusive. */
  created_from?: number;
  /** Unix seconds, inclusive. */
  created_to?: number;
};
export interface WithdrawalsPage {
  withdrawals: Withdrawal[];
  next_cursor: string | null;
}

// Pix keys
export type CreatePixKeyRequest = WithOptionalKey<Schemas['CreatePixKeyRequest']>;
export interface DeletePixKeyRequest {
  idempotency_key?: string;
}
export type PixKeyStatus = Schemas['PixKeyStatusResult']['status'];
/** The key request's answer (`accepted`; a deletion also `already_sent` or `succeeded`), with its idempotency key. */
export interface PixKeyRequestResult {
  status: PixKeyStatus;
  idempotency_key: string;
}
export type PixKey = Schemas['PixKeyView'];
export type ListPixKeysQuery = ListQuery & {
  status?: PixKey['status'];
  document?: string;
};
export interface PixKeysPage {
  pix_keys: PixKey[];
  next_cursor: string | null;
}

// Business customers
export type CreateBusinessCustomerRequest = Schemas['CreateBusinessCustomerRequest'];
export type CreateBusinessCustomerResult = Schemas['CreateBusinessCustomerResult'];
export type BusinessCustomer = Schemas['BusinessCustomerView'];
export type ListCustomersQuery = ListQuery & {
  cnpj?: string;
  external_id?: string;
};
export interface CustomersPage {
  customers: BusinessCustomer[];
  next_cursor: string | null;
}

// Pix inflows
export type PixInflow = Schemas['PixInflow'];
export type ListPixInflowsQuery = Omit<NonNullable<operations['listPixInflows']['parameters']['query']>, 'cursor' | 'limit'> & ListQuery;
export interface PixInflowsPage {
  pix_in: PixInflow[];
  next_cursor: string | null;
}

// Events
export type PartnerEvent = Schemas['ListEventsResult']['events'][number];
export type EventType = PartnerEvent['type'];
export type ListEventsQuery = Omit<NonNullable<operations['listEvents']['parameters']['query']>, 'cursor' | 'limit'> & ListQuery;
export type EventsPage = Schemas['ListEventsResult'];
export type AckEventsResult = Schemas['AckEventsResult'];

// Balances
export interface Balance {
  document: string;
  available_usdt_micros: number;
  held_usdt_micros: number;
}

/** An error body: `{error, message, field?, request_id?}`, or `{status, ...}` on the Pix key family. */
export type ErrorBody = Schemas['ErrorBody'] | Schemas['PixKeyErrorBody'];
