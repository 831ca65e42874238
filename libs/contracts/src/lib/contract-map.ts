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
import { CreatePixKeyCommand, PixKeyStatusResult } from './pix-keys/create-pix-key/create-pix-key.command';
import { PixKeyStateChangedEvent } from './pix-keys/pix-key-state-changed/pix-key-state-changed.event';
import { UpsertUserCommand, UpsertUserResult } from './users/upsert-user/upsert-user.command';
import { DeletePixKeyCommand } from './pix-keys/delete-pix-key/delete-pix-key.command';
import { GetPixKeyQuery, GetPixKeyResult } from './pix-keys/get-pix-key/get-pix-key.query';
import { Reply } from './reply';
import { ServiceName } from './services.catalogue';
import { Topics } from './topics';
import { CreateWithdrawalCommand, CreateWithdrawalResult } from './withdrawals/create-withdrawal/create-withdrawal.command';
import { AccountBalance, CreditAccountCommand, CreditAccountResult } from './withdrawals/credit-account/credit-account.command';
import { GetBalanceQuery } from './withdrawals/get-balance/get-balance.query';
import { ApiKeyRevokedEvent } from './gateway/api-key-revoked/api-key-revoked.event';
import { AccountCreditedEvent } from './withdrawals/account-credited/account-credited.event';
import { GetWithdrawalQuery, GetWithdrawalResult } from './withdrawals/get-withdrawal/get-withdrawal.query';
import { WithdrawalStateChangedEvent } from './withdrawals/withdrawal-state-changed/withdrawal-state-changed.event';

/** A request-reply topic: the payload class (validated on both sides) and, as a phantom type, its reply. */
export interface RequestContract<P extends object, R> {
  readonly payload: ClassConstructor<P>;
  readonly reply?: Reply<R>;
}
const request = <P extends object, R>(payload: ClassConstructor<P>): RequestContract<P, R> => ({ payload });

export const requestContracts = {
  [Topics.WithdrawalsCreate]: request<CreateWithdrawalCommand, CreateWithdrawalResult>(CreateWithdrawalCommand),
  [Topics.WithdrawalsUpsertUser]: request<UpsertUserCommand, UpsertUserResult>(UpsertUserCommand),
  [Topics.WithdrawalsCreditAccount]: request<CreditAccountCommand, CreditAccountResult>(CreditAccountCommand),
  [Topics.WithdrawalsGetBalance]: request<GetBalanceQuery, AccountBalance>(GetBalanceQuery),
  [Topics.WithdrawalsGet]: request<GetWithdrawalQuery, GetWithdrawalResult>(GetWithdrawalQuery),
  [Topics.WithdrawalsPing]: request<PingQuery, PingResult>(PingQuery),
  [Topics.EventsList]: request<ListEventsQuery, ListEventsResult>(ListEventsQuery),
  [Topics.EventsMarkDelivered]: request<MarkEventDeliveredCommand, MarkEventDeliveredResult>(MarkEventDeliveredCommand),
  [Topics.EventsAck]: request<AckEventsCommand, AckEventsResult>(AckEventsCommand),
  [Topics.EventsPing]: request<PingQuery, PingResult>(PingQuery),
  [Topics.PixKeysCreate]: request<CreatePixKeyCommand, PixKeyStatusResult>(CreatePixKeyCommand),
  [Topics.PixKeysDelete]: request<DeletePixKeyCommand, PixKeyStatusResult>(DeletePixKeyCommand),
  [Topics.PixKeysGet]: request<GetPixKeyQuery, GetPixKeyResult>(GetPixKeyQuery),
  [Topics.PixKeysUpsertUser]: request<UpsertUserCommand, UpsertUserResult>(UpsertUserCommand),
  [Topics.PixKeysPing]: request<PingQuery, PingResult>(PingQuery),
  [Topics.CustomersCreateBusiness]: request<CreateBusinessCustomerCommand, CreateBusinessCustomerResult>(CreateBusinessCustomerCommand),
  [Topics.CustomersGet]: request<GetBusinessCustomerQuery, GetBusinessCustomerResult>(GetBusinessCustomerQuery),
  [Topics.CustomersPing]: request<PingQuery, PingResult>(PingQuery),
  [Topics.InflowsList]: request<ListPixInflowsQuery, ListPixInflowsResult>(ListPixInflowsQuery),
  [Topics.InflowsUpsertUser]: request<UpsertUserCommand, UpsertUserResult>(UpsertUserCommand),
  [Topics.InflowsSimulatePixIn]: request<SimulatePixInCommand, SimulatePixInResult>(SimulatePixInCommand),
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

/** Fire-and-forget event topics and the payload class each carries. */
export const eventContracts = {
  [Topics.WithdrawalStateChanged]: WithdrawalStateChangedEvent,
  [Topics.AccountCredited]: AccountCreditedEvent,
  [Topics.PixKeyStateChanged]: PixKeyStateChangedEvent,
  [Topics.PixInStateChanged]: PixInStateChangedEvent,
  [Topics.BusinessCustomerRegistered]: BusinessCustomerRegisteredEvent,
  [Topics.SpiPixReceived]: PixReceivedEvent,
  [Topics.GatewayApiKeyRevoked]: ApiKeyRevokedEvent,
} as const;

export type RequestTopic = keyof typeof requestContracts;
export type EventTopic = keyof typeof eventContracts;
export type RequestPayload<T extends RequestTopic> =
  (typeof requestContracts)[T] extends RequestContract<infer P, unknown> ? P : never;
export type RequestResult<T extends RequestTopic> =
  (typeof requestContracts)[T] extends RequestContract<object, infer R> ? R : never;
export type RequestReply<T extends RequestTopic> = Reply<RequestResult<T>>;
export type EventPayload<T extends EventTopic> = InstanceType<(typeof eventContracts)[T]>;

/** The class that validates a topic's payload, whichever kind of topic it is. */
export function payloadClassOf(topic: RequestTopic | EventTopic): ClassConstructor<object> {
  return topic in requestContracts
    ? requestContracts[topic as RequestTopic].payload
    : eventContracts[topic as EventTopic];
}

export const requestTopics = Object.keys(requestContracts) as RequestTopic[];
export const eventTopics = Object.keys(eventContracts) as EventTopic[];
