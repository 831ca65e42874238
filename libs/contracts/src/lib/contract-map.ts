import type { ClassConstructor } from 'class-transformer';
import { CreateBusinessCustomerCommand, CreateBusinessCustomerResult } from './customers/create-business-customer/create-business-customer.command';
import { GetBusinessCustomerQuery, GetBusinessCustomerResult } from './customers/get-business-customer/get-business-customer.query';
import { AckEventsCommand, AckEventsResult } from './events/ack-events/ack-events.command';
import { ListEventsQuery, ListEventsResult } from './events/list-events/list-events.query';
import { MarkEventDeliveredCommand, MarkEventDeliveredResult } from './events/mark-delivered/mark-event-delivered.command';
import { PingQuery, PingResult } from './health/ping.query';
import { BusinessCustomerRegisteredEvent } from './customers/business-customer-registered/business-customer-registered.event';
import { ListPixInflowsQuery, ListPixInflowsResult } from './inflows/list-pix-inflows/list-pix-inflows.query';
import { PixInStateChangedEvent } from './inflows/pix-in-state-changed/pix-in-state-changed.event';
import { PixReceivedEvent } from './inflows/pix-received/pix-received.event';
import { SimulatePixInCommand, SimulatePixInResult } from './inflows/simulate-pix-in/simulate-pix-in.command';
import { CreatePixKeyCommand, PixKeyCommandResult } from './pix-keys/create-pix-key/create-pix-key.command';
import { IngestPixInflowCommand, IngestPixInflowResult } from './inflows/ingest-pix-inflow/ingest-pix-inflow.command';
import { PixKeyStateChangedEvent } from './pix-keys/pix-key-state-changed/pix-key-state-changed.event';
import { UpsertUserCommand, UpsertUserResult } from './users/upsert-user/upsert-user.command';
import { DeletePixKeyCommand } from './pix-keys/delete-pix-key/delete-pix-key.command';
import { GetPixKeyQuery, GetPixKeyResult } from './pix-keys/get-pix-key/get-pix-key.query';
import type { ErrorCode } from './error-codes';
import { Reply } from './reply';
import { ServiceName } from './services.catalogue';
import { Topics } from './topics';
import { CreateWithdrawalCommand, CreateWithdrawalResult } from './withdrawals/create-withdrawal/create-withdrawal.command';
import { AccountBalance, CreditAccountCommand, CreditAccountResult } from './withdrawals/credit-account/credit-account.command';
import { GetBalanceQuery } from './withdrawals/get-balance/get-balance.query';
import { GetLedgerQuery, LedgerPage } from './withdrawals/get-ledger/get-ledger.query';
import { ListUsersQuery, ListUsersResult } from './withdrawals/list-users/list-users.query';
import { ApiKeyRevokedEvent } from './gateway/api-key-revoked/api-key-revoked.event';
import { PartnerStatusChangedEvent } from './gateway/partner-status-changed/partner-status-changed.event';
import { AccountCreditedEvent } from './withdrawals/account-credited/account-credited.event';
import { GetWithdrawalQuery, GetWithdrawalResult } from './withdrawals/get-withdrawal/get-withdrawal.query';
import { ListWithdrawalsQuery, ListWithdrawalsResult } from './withdrawals/list-withdrawals/list-withdrawals.query';
import { ListPixKeysQuery, ListPixKeysResult } from './pix-keys/list-pix-keys/list-pix-keys.query';
import { ListBusinessCustomersQuery, ListBusinessCustomersResult } from './customers/list-business-customers/list-business-customers.query';
import { WithdrawalStateChangedEvent } from './withdrawals/withdrawal-state-changed/withdrawal-state-changed.event';

/**
 * A request-reply topic: the payload class (validated on both sides), its partition key and, as phantom
 * types, its reply and the error codes that reply may carry.
 */
export interface RequestContract<P extends object, R, C extends ErrorCode> {
  readonly payload: ClassConstructor<P>;
  /**
   * The Kafka key of a request: requests with the same key land on one partition and are handled in
   * turn (ordering depends on it). Absent: unkeyed, so reads spread over partitions and run side by side.
   */
  readonly key?: (payload: P) => string;
  readonly reply?: Reply<R, C>;
}
/** `C`: the codes of the topic's refusals; `invalid_request` (a payload that fails validation) is always one. */
const request = <P extends object, R, C extends ErrorCode = never>(
  payload: ClassConstructor<P>,
  key?: (payload: P) => string,
): RequestContract<P, R, C | 'invalid_request'> => (key ? { payload, key } : { payload });

/** One user's commands (and balance reads) in turn: keyed by partner and CPF. */
const byUser = (p: { partner_id: string; document: string }): string => `${p.partner_id}:${p.document}`;
/** One partner's feed acknowledgements in turn. */
const byPartner = (p: { partner_id: string }): string => p.partner_id;

export const requestContracts = {
  /** Keyed by partner and idempotency key, so duplicates land on one partition and are handled in turn. */
  [Topics.WithdrawalsCreate]: request<CreateWithdrawalCommand, CreateWithdrawalResult, 'invalid_address' | 'invalid_amount' | 'invalid_fee' | 'user_not_found' | 'insufficient_funds' | 'idempotency_key_reused'>(
    CreateWithdrawalCommand,
    (p) => `${p.partner_id}:${p.idempotency_key}`,
  ),
  [Topics.WithdrawalsUpsertUser]: request<UpsertUserCommand, UpsertUserResult>(UpsertUserCommand, byUser),
  [Topics.WithdrawalsCreditAccount]: request<CreditAccountCommand, CreditAccountResult, 'user_not_found' | 'idempotency_key_reused' | 'invalid_amount'>(CreditAccountCommand, byUser),
  [Topics.WithdrawalsGetBalance]: request<GetBalanceQuery, AccountBalance, 'user_not_found'>(GetBalanceQuery, byUser),
  [Topics.WithdrawalsGet]: request<GetWithdrawalQuery, GetWithdrawalResult, 'not_found'>(GetWithdrawalQuery),
  [Topics.WithdrawalsList]: request<ListWithdrawalsQuery, ListWithdrawalsResult>(ListWithdrawalsQuery),
  /** A cursor the service did not issue is invalid_request (field cursor). */
  [Topics.WithdrawalsListUsers]: request<ListUsersQuery, ListUsersResult>(ListUsersQuery),
  [Topics.WithdrawalsLedger]: request<GetLedgerQuery, LedgerPage, 'user_not_found'>(GetLedgerQuery),
  [Topics.WithdrawalsPing]: request<PingQuery, PingResult>(PingQuery),
  [Topics.EventsList]: request<ListEventsQuery, ListEventsResult>(ListEventsQuery),
  [Topics.EventsMarkDelivered]: request<MarkEventDeliveredCommand, MarkEventDeliveredResult, 'not_found'>(MarkEventDeliveredCommand, byPartner),
  [Topics.EventsAck]: request<AckEventsCommand, AckEventsResult>(AckEventsCommand, byPartner),
  [Topics.EventsPing]: request<PingQuery, PingResult>(PingQuery),
  /** Both key commands by user: every request about one user's key is handled in turn (the unique index still holds alone). */
  [Topics.PixKeysCreate]: request<CreatePixKeyCommand, PixKeyCommandResult, 'invalid_document' | 'user_not_found' | 'already_exists' | 'idempotency_key_reused'>(CreatePixKeyCommand, byUser),
  [Topics.PixKeysDelete]: request<DeletePixKeyCommand, PixKeyCommandResult, 'invalid_document' | 'not_found' | 'idempotency_key_reused'>(DeletePixKeyCommand, byUser),
  [Topics.PixKeysGet]: request<GetPixKeyQuery, GetPixKeyResult, 'invalid_document' | 'not_found'>(GetPixKeyQuery),
  [Topics.PixKeysList]: request<ListPixKeysQuery, ListPixKeysResult, 'invalid_document'>(ListPixKeysQuery),
  [Topics.PixKeysUpsertUser]: request<UpsertUserCommand, UpsertUserResult>(UpsertUserCommand, byUser),
  [Topics.PixKeysPing]: request<PingQuery, PingResult>(PingQuery),
  /** Keyed by partner and CNPJ, so registrations of one CNPJ land on one partition and are handled in turn. */
  [Topics.CustomersCreateBusiness]: request<CreateBusinessCustomerCommand, CreateBusinessCustomerResult, 'invalid_cnpj' | 'invalid_phone' | 'invalid_owner' | 'already_exists'>(
    CreateBusinessCustomerCommand,
    (p) => `${p.partner_id}:${p.cnpj}`,
  ),
  [Topics.CustomersGet]: request<GetBusinessCustomerQuery, GetBusinessCustomerResult, 'not_found'>(GetBusinessCustomerQuery),
  [Topics.CustomersList]: request<ListBusinessCustomersQuery, ListBusinessCustomersResult, 'invalid_cnpj'>(ListBusinessCustomersQuery),
  [Topics.CustomersPing]: request<PingQuery, PingResult>(PingQuery),
  [Topics.InflowsList]: request<ListPixInflowsQuery, ListPixInflowsResult>(ListPixInflowsQuery),
  [Topics.InflowsUpsertUser]: request<UpsertUserCommand, UpsertUserResult>(UpsertUserCommand, byUser),
  [Topics.InflowsSimulatePixIn]: request<SimulatePixInCommand, SimulatePixInResult, 'user_not_found' | 'pix_key_not_registered' | 'idempotency_key_reused'>(SimulatePixInCommand, byUser),
  /** Keyed by end-to-end id: the notifications of one inflow are applied in turn. */
  [Topics.InflowsIngest]: request<IngestPixInflowCommand, IngestPixInflowResult, 'user_not_found' | 'invalid_transition' | 'end_to_end_id_conflict'>(
    IngestPixInflowCommand,
    (p) => p.end_to_end_id,
  ),
  [Topics.InflowsPing]: request<PingQuery, PingResult>(PingQuery),
} as const;

/**
 * Read-only queries the owning service also answers on its internal HTTP port (docs/architecture.md: "Direct
 * queries"): a partner's most frequent calls (the feed poll, the Pix-in list) then skip the two broker
 * hops of request-reply. Nothing that changes state is here: commands always travel through Kafka.
 */
export const directQueryTopics = [Topics.EventsList, Topics.InflowsList] as const satisfies readonly (keyof typeof requestContracts)[];
export type DirectQueryTopic = (typeof directQueryTopics)[number];
export const isDirectQueryTopic = (topic: string): topic is DirectQueryTopic => (directQueryTopics as readonly string[]).includes(topic);
/** The service that answers a direct query: its topic's domain prefix. */
export const ownerOfQuery = (topic: DirectQueryTopic): ServiceName => topic.slice(0, topic.indexOf('.')) as ServiceName;

/** A fire-and-forget event topic: the payload class consumers validate, and the partition key of an event. */
export interface EventContract<P extends object> {
  readonly payload: ClassConstructor<P>;
  /** The events of one key reach consumers in the order they were emitted (ordering depends on it). */
  readonly key: (payload: P) => string;
}
const event = <P extends object>(payload: ClassConstructor<P>, key: (payload: P) => string): EventContract<P> => ({ payload, key });

/** Fire-and-forget event topics: each one's payload class and key. */
export const eventContracts = {
  /** By withdrawal, so its events stay in order. */
  [Topics.WithdrawalStateChanged]: event(WithdrawalStateChangedEvent, (e) => `usdt_withdrawal:${e.resource.id}`),
  /** By account, so one account's credits stay in order. */
  [Topics.AccountCredited]: event(AccountCreditedEvent, (e) => `account:${e.partner_id}:${e.document}`),
  /** By user rather than key, so every key of one user (a canceled one, then its successor) reaches the feed in order. */
  [Topics.PixKeyStateChanged]: event(PixKeyStateChangedEvent, (e) => `pix_key:${e.partner_id}:${e.resource.document}`),
  /** By inflow, so its events stay in order. */
  [Topics.PixInStateChanged]: event(PixInStateChangedEvent, (e) => `pix_in:${e.resource_id}`),
  /** By customer, like every event of one resource. */
  [Topics.BusinessCustomerRegistered]: event(BusinessCustomerRegisteredEvent, (e) => `business_customer:${e.resource_id}`),
  /** By end-to-end id: all that concerns one payment stays on one partition. */
  [Topics.SpiPixReceived]: event(PixReceivedEvent, (e) => e.end_to_end_id),
  [Topics.GatewayApiKeyRevoked]: event(ApiKeyRevokedEvent, (e) => e.key_id),
  /** By partner, so a disable and a re-enable arrive in order. */
  [Topics.GatewayPartnerStatusChanged]: event(PartnerStatusChangedEvent, (e) => e.partner_id),
} as const;

export type RequestTopic = keyof typeof requestContracts;
export type EventTopic = keyof typeof eventContracts;
export type RequestPayload<T extends RequestTopic> =
  (typeof requestContracts)[T] extends RequestContract<infer P, unknown, infer _C> ? P : never;
export type RequestResult<T extends RequestTopic> =
  (typeof requestContracts)[T] extends RequestContract<infer _P, infer R, infer _C> ? R : never;
/** The error codes a topic's handler may answer: a handler answering another one does not compile. */
export type RequestErrorCode<T extends RequestTopic> =
  (typeof requestContracts)[T] extends RequestContract<infer _P, unknown, infer C> ? C : never;
export type RequestReply<T extends RequestTopic> = Reply<RequestResult<T>, RequestErrorCode<T>>;
export type EventPayload<T extends EventTopic> = (typeof eventContracts)[T] extends EventContract<infer P> ? P : never;

// The maps seen per topic, so that a generic topic indexes its own key function (TypeScript's
// "correlated union" pattern): assigning the maps here checks each contract against its topic.
const requestKeys: { readonly [T in RequestTopic]: { readonly key?: (payload: RequestPayload<T>) => string } } = requestContracts;
const eventKeys: { readonly [T in EventTopic]: { readonly key: (payload: EventPayload<T>) => string } } = eventContracts;

/** The Kafka key of a request, from its contract; null for a request that needs no order (a read). */
export function requestKeyOf<T extends RequestTopic>(topic: T, payload: RequestPayload<T>): string | null {
  const key = requestKeys[topic].key;
  return key ? key(payload) : null;
}

/** The Kafka key of an event, from its contract. */
export function eventKeyOf<T extends EventTopic>(topic: T, payload: EventPayload<T>): string {
  return eventKeys[topic].key(payload);
}

/** The class that validates a topic's payload, whichever kind of topic it is. */
export function payloadClassOf(topic: RequestTopic | EventTopic): ClassConstructor<object> {
  return topic in requestContracts
    ? requestContracts[topic as RequestTopic].payload
    : eventContracts[topic as EventTopic].payload;
}

export const requestTopics = Object.keys(requestContracts) as RequestTopic[];
export const eventTopics = Object.keys(eventContracts) as EventTopic[];
