import type { components, operations } from '../generated/partner-api';
import type { CallOptions } from './http-transport';

/** The OpenAPI document's schemas by name, e.g. `Schemas['UsdtWithdrawalEvent']`. */
export type Schemas = components['schemas'];

/** A create call's idempotency key is optional: without one the SDK makes one (a UUID) per call and reuses it on every retry. */
type WithOptionalKey<T extends { idempotency_key: string }> = Omit<T, 'idempotency_key'> & { idempotency_key?: string };

/** A list operation's query parameters, as the OpenAPI document declares them (so the SDK cannot drift from the routes). */
type QueryOf<Operation extends keyof operations> = NonNullable<operations[Operation]['parameters']['query']>;

/** The paging parameters of every list (its page: the items under the family's name, and `next_cursor`, null on the last page). */
export type ListQuery = {
  /** Page size (1-1000). */
  limit?: number;
  /** The `next_cursor` of the previous page (with the same filters). */
  cursor?: string;
};

// Withdrawals
export type CreateWithdrawalRequest = WithOptionalKey<Schemas['CreateUsdtWithdrawalRequest']>;
/** The withdrawal's id, and the idempotency key it was created under (yours, or the one the SDK made). */
export type CreateWithdrawalResult = Schemas['CreateUsdtWithdrawalResponse'] & { idempotency_key: string };
export type Withdrawal = Schemas['UsdtWithdrawalView'];
export type WithdrawalState = Withdrawal['state'];
/** Filters `document`, `state`, `created_from` / `created_to` (ISO 8601 date-times with an offset), and paging. */
export type ListWithdrawalsQuery = QueryOf<'listUsdtWithdrawals'>;
/** Newest first. */
export type WithdrawalsPage = Schemas['ListWithdrawalsResult'];

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
/** Filters `status` and `document`, and paging. */
export type ListPixKeysQuery = QueryOf<'listPixKeys'>;
/** Every key asked for, ended ones included, newest first. */
export type PixKeysPage = Schemas['ListPixKeysResult'];

// Business customers
export type CreateBusinessCustomerRequest = Schemas['CreateBusinessCustomerRequest'];
/**
 * The customer's id, the Idempotency-Key it was registered under (yours, or the one the SDK made), and whether
 * the answer replays an earlier registration under that key (200, `Idempotent-Replayed: true`) instead of making one.
 */
export type CreateBusinessCustomerResult = Schemas['CreateBusinessCustomerResult'] & { idempotency_key: string; replayed: boolean };
/** `createBusiness`'s options: a call's, and the Idempotency-Key to send (1-255 visible ASCII characters; default: one UUID per call). */
export interface CreateBusinessCustomerOptions extends CallOptions {
  idempotencyKey?: string;
}
export type BusinessCustomer = Schemas['BusinessCustomerView'];
/** Filters `cnpj` and `external_id` (metadata.external_id), and paging. */
export type ListCustomersQuery = QueryOf<'listBusinessCustomers'>;
/** Newest first. */
export type CustomersPage = Schemas['ListBusinessCustomersResult'];

// Pix inflows
export type PixInflow = Schemas['PixInflow'];
/** An inflow with its refunds (GET /partner/v1/pix-in/{end_to_end_id}). */
export type PixInflowDetail = Schemas['PixInflowDetail'];
export type PixInRefund = Schemas['PixInRefundView'];
export type RefundPixInRequest = WithOptionalKey<Schemas['RefundPixInRequest']>;
/** The refund's id and status, and the idempotency key it was created under (yours, or the one the SDK made). */
export type RefundPixInResult = Schemas['RefundPixInResponse'] & { idempotency_key: string };
export type ListPixInflowsQuery = QueryOf<'listPixInflows'>;
export interface PixInflowsPage {
  pix_in: PixInflow[];
  next_cursor: string | null;
}

// Events
export type PartnerEvent = Schemas['ListEventsResult']['events'][number];
export type EventType = PartnerEvent['type'];
export type ListEventsQuery = QueryOf<'listEvents'>;
export type EventsPage = Schemas['ListEventsResult'];
export type AckEventsResult = Schemas['AckEventsResult'];

// Balances
/** Available and held USDT micros of a user (`getPartnerUserBalance`). */
export type Balance = Schemas['UserBalanceView'];

// Limits and saved addresses
/** The user's withdrawal limits in force and their use (`getUserLimits`). */
export type UserLimits = Schemas['UserLimitsView'];
/** The owner of a withdrawal's destination (`beneficiary`). */
export type Beneficiary = Schemas['Beneficiary'];
export type SaveAddressRequest = Schemas['SaveAddressRequest'];
export type SavedAddress = Schemas['SavedAddressView'];
export type SavedAddressList = Schemas['SavedAddressList'];
export type AddressChallenge = Schemas['AddressChallenge'];

/** An error body: `{error, message, field?, request_id?}`, or `{status, ...}` on the Pix key family. */
export type ErrorBody = Schemas['ErrorBody'] | Schemas['PixKeyErrorBody'];
