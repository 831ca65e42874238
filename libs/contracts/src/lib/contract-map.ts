import type { ClassConstructor } from 'class-transformer';
import {
  CreateBusinessCustomerCommand,
  CreateBusinessCustomerCommandResult,
} from './customers/create-business-customer/create-business-customer.command';
import { GetBusinessCustomerQuery, GetBusinessCustomerResult } from './customers/get-business-customer/get-business-customer.query';
import { AckEventsCommand, AckEventsResult } from './events/ack-events/ack-events.command';
import { ListEventsQuery, ListEventsResult } from './events/list-events/list-events.query';
import { MarkEventDeliveredCommand, MarkEventDeliveredResult } from './events/mark-delivered/mark-event-delivered.command';
import { PingQuery, PingResult } from './health/ping.query';
import { BusinessCustomerRegisteredEvent } from './customers/business-customer-registered/business-customer-registered.event';
import { ListPixInflowsQuery, ListPixInflowsResult } from './inflows/list-pix-inflows/list-pix-inflows.query';
import { PixInStateChangedEvent } from './inflows/pix-in-state-changed/pix-in-state-changed.event';
import { PixInRefundStateChangedEvent } from './inflows/pix-in-refund-state-changed/pix-in-refund-state-changed.event';
import { RefundPixInCommand, RefundPixInResult } from './inflows/refund-pix-in/refund-pix-in.command';
import { GetPixInflowQuery, PixInflowDetail } from './inflows/get-pix-inflow/get-pix-inflow.query';
import { PixReceivedEvent } from './inflows/pix-received/pix-received.event';
import { SimulatePixInCommand, SimulatePixInResult } from './inflows/simulate-pix-in/simulate-pix-in.command';
import { CreatePixKeyCommand, PixKeyCommandResult } from './pix-keys/create-pix-key/create-pix-key.command';
import { IngestPixInflowCommand, IngestPixInflowResult } from './inflows/ingest-pix-inflow/ingest-pix-inflow.command';
import { BrlBalance, BrlLedgerPage, GetBrlBalanceQuery, GetBrlLedgerQuery } from './inflows/accounts/brl-account.query';
import { AccountStatusView, SetAccountStatusCommand } from './inflows/set-account-status/set-account-status.command';
import { ListUnmatchedPixInflowsQuery, UnmatchedPixInflowsPage } from './inflows/unmatched/list-unmatched-pix-inflows.query';
import { PixKeyStateChangedEvent } from './pix-keys/pix-key-state-changed/pix-key-state-changed.event';
import { MedCaseReceivedEvent } from './pix-keys/med-case-received/med-case-received.event';
import { MedCaseCancelledEvent } from './pix-keys/med-case-cancelled/med-case-cancelled.event';
import { MedCaseChangedEvent } from './inflows/med-case-changed/med-case-changed.event';
import { DecideMedCaseCommand, ListMedCasesQuery, MedCasesPage, MedCaseView } from './inflows/med-cases/med-cases.contracts';
import { PixKeyClaimChangedEvent } from './pix-keys/pix-key-claim-changed/pix-key-claim-changed.event';
import {
  CancelPixKeyClaimCommand,
  ConfirmPixKeyClaimCommand,
  PixKeyClaimDecisionResult,
} from './pix-keys/decide-pix-key-claim/decide-pix-key-claim.command';
import { UpsertUserCommand, UpsertUserResult } from './users/upsert-user/upsert-user.command';
import { DeletePixKeyCommand } from './pix-keys/delete-pix-key/delete-pix-key.command';
import { GetPixKeyQuery, GetPixKeyResult } from './pix-keys/get-pix-key/get-pix-key.query';
import { INVALID_REQUEST, type InvalidRequest } from '@partner/validation';
import type { ErrorCode } from './error-codes';
import { Reply } from './reply';
import { ServiceName } from './services.catalogue';
import { Topics } from './topics';
import { CreateWithdrawalCommand, CreateWithdrawalResult } from './withdrawals/create-withdrawal/create-withdrawal.command';
import { AccountBalance, CreditAccountCommand, CreditAccountResult } from './withdrawals/credit-account/credit-account.command';
import { GetBalanceQuery } from './withdrawals/get-balance/get-balance.query';
import { GetLedgerQuery, LedgerPage } from './withdrawals/get-ledger/get-ledger.query';
import { ListUsersQuery, ListUsersResult } from './withdrawals/list-users/list-users.query';
import { ListHotWalletsQuery, ListHotWalletsResult } from './withdrawals/hot-wallets/list-hot-wallets.query';
import {
  ListFindingsQuery,
  ListFindingsResult,
  ReconcileCommand,
  ReconcileResult,
  ReconciliationFindingView,
} from './withdrawals/reconcile/reconcile.command';
import { FindingStepCommand } from './withdrawals/finding-workflow/finding-workflow.command';
import { CancelPayoutCommand, PayoutView } from './withdrawals/cancel-payout/cancel-payout.command';
import { ScreeningStatus } from './withdrawals/screening/screening.types';
import { ScreeningStatusQuery } from './withdrawals/screening-status/screening-status.query';
import { ReplaceSdnListCommand, ReplaceSdnListResult } from './withdrawals/replace-sdn-list/replace-sdn-list.command';
import {
  DenyListAddCommand,
  DenyListAddResult,
  DenyListEntryView,
  DenyListPage,
  DenyListQuery,
  DenyListRemoveCommand,
} from './withdrawals/deny-list/deny-list.command';
import { LimitsView, SetLimitsCommand } from './withdrawals/set-limits/set-limits.command';
import { GetPartnerLimitsQuery, GetUserLimitsQuery, UserLimitsView } from './withdrawals/get-limits/get-limits.query';
import {
  GetWithdrawalApprovalQuery,
  ListWithdrawalApprovalsQuery,
  WithdrawalApproval,
  WithdrawalApprovalList,
} from './withdrawals/withdrawal-approvals/withdrawal-approval.query';
import { DecideWithdrawalApprovalCommand } from './withdrawals/withdrawal-approvals/decide-withdrawal-approval.command';
import {
  CreateWithdrawalReportCommand,
  FileWithdrawalReportCommand,
  WithdrawalReportCreated,
  WithdrawalReportPage,
  WithdrawalReportQuery,
} from './withdrawals/withdrawal-reports/withdrawal-report.command';
import {
  GetWithdrawalPolicyQuery,
  SetWithdrawalPolicyCommand,
  WithdrawalPolicyView,
} from './withdrawals/withdrawal-policy/withdrawal-policy.command';
import {
  ListAddressesQuery,
  RemoveAddressCommand,
  SaveAddressCommand,
  SavedAddressList,
  SavedAddressView,
} from './withdrawals/address-book/address-book.command';
import { ApiKeyRevokedEvent } from './gateway/api-key-revoked/api-key-revoked.event';
import { PartnerStatusChangedEvent } from './gateway/partner-status-changed/partner-status-changed.event';
import { AccountCreditedEvent } from './withdrawals/account-credited/account-credited.event';
import { GetWithdrawalQuery, GetWithdrawalResult } from './withdrawals/get-withdrawal/get-withdrawal.query';
import { ListWithdrawalsQuery, ListWithdrawalsResult } from './withdrawals/list-withdrawals/list-withdrawals.query';
import { ListPixKeysQuery, ListPixKeysResult } from './pix-keys/list-pix-keys/list-pix-keys.query';
import { ListBusinessCustomersQuery, ListBusinessCustomersResult } from './customers/list-business-customers/list-business-customers.query';
import {
  ListOwnerNotificationsQuery,
  ListOwnerNotificationsResult,
} from './customers/list-owner-notifications/list-owner-notifications.query';
import { WithdrawalStateChangedEvent } from './withdrawals/withdrawal-state-changed/withdrawal-state-changed.event';

/**
 * A request-reply topic: the payload class (validated on both sides), its partition key, the codes of its
 * refusals and, as a phantom type, its reply.
 */
export interface RequestContract<P extends object, R, C extends ErrorCode> {
  readonly payload: ClassConstructor<P>;
  /**
   * The Kafka key of a request: requests with the same key land on one partition and are handled in
   * turn (ordering depends on it). Absent: unkeyed, so reads spread over partitions and run side by side.
   */
  readonly key?: (payload: P) => string;
  /** The codes its handler may refuse with, besides `invalid_request`, which every topic may answer. */
  readonly refusals: readonly C[];
  /** `refusals` and `invalid_request`: every code a reply of the topic may carry (checked where a reply arrives). */
  readonly errorCodes: readonly (C | InvalidRequest)[];
  readonly reply?: Reply<R, C | InvalidRequest>;
}
/**
 * A topic whose success answers `R`: `request<R>()(payload class, { refusals, key })`. `refusals` is a list
 * (not only a type) so that a reply's code read off the wire can be recognised without a cast.
 */
const request =
  <R>() =>
  <P extends object, const C extends ErrorCode = never>(
    payload: ClassConstructor<P>,
    { refusals = [], key }: { refusals?: readonly C[]; key?: (payload: P) => string } = {},
  ): RequestContract<P, R, C> => ({ payload, refusals, errorCodes: [...refusals, INVALID_REQUEST], ...(key ? { key } : {}) });

/** One user's commands (and balance reads) in turn: keyed by partner and CPF. */
const byUser = (p: { partner_id: string; document: string }): string => `${p.partner_id}:${p.document}`;
/** One partner's feed acknowledgements in turn. */
const byPartner = (p: { partner_id: string }): string => p.partner_id;

export const requestContracts = {
  /** Keyed by partner and idempotency key, so duplicates land on one partition and are handled in turn. */
  [Topics.WithdrawalsCreate]: request<CreateWithdrawalResult>()(CreateWithdrawalCommand, {
    refusals: [
      'invalid_address',
      'invalid_amount',
      'invalid_fee',
      'user_not_found',
      'insufficient_funds',
      'idempotency_key_reused',
      'address_blocked',
      'limit_exceeded',
      'beneficiary_required',
      'address_not_saved',
      'address_cooling_down',
    ],
    key: (p) => `${p.partner_id}:${p.idempotency_key}`,
  }),
  [Topics.WithdrawalsUpsertUser]: request<UpsertUserResult>()(UpsertUserCommand, { key: byUser }),
  [Topics.WithdrawalsCreditAccount]: request<CreditAccountResult>()(CreditAccountCommand, {
    refusals: ['user_not_found', 'idempotency_key_reused', 'invalid_amount'],
    key: byUser,
  }),
  [Topics.WithdrawalsGetBalance]: request<AccountBalance>()(GetBalanceQuery, { refusals: ['user_not_found'], key: byUser }),
  [Topics.WithdrawalsGet]: request<GetWithdrawalResult>()(GetWithdrawalQuery, { refusals: ['not_found'] }),
  [Topics.WithdrawalsList]: request<ListWithdrawalsResult>()(ListWithdrawalsQuery),
  /** A cursor the service did not issue is invalid_request (field cursor). */
  [Topics.WithdrawalsListUsers]: request<ListUsersResult>()(ListUsersQuery),
  [Topics.WithdrawalsLedger]: request<LedgerPage>()(GetLedgerQuery, { refusals: ['user_not_found'] }),
  [Topics.WithdrawalsHotWallets]: request<ListHotWalletsResult>()(ListHotWalletsQuery),
  [Topics.WithdrawalsReconcile]: request<ReconcileResult>()(ReconcileCommand),
  [Topics.WithdrawalsFindings]: request<ListFindingsResult>()(ListFindingsQuery),
  /** Keyed by finding: two operators' steps on one finding are handled in turn. */
  [Topics.WithdrawalsFindingStep]: request<ReconciliationFindingView>()(FindingStepCommand, {
    refusals: ['not_found', 'invalid_transition'],
    key: (p) => `finding:${p.finding_id}`,
  }),
  /** Keyed by withdrawal: two operators' cancels of one payout are handled in turn. */
  [Topics.WithdrawalsCancelPayout]: request<PayoutView>()(CancelPayoutCommand, {
    refusals: ['not_found', 'invalid_transition'],
    key: (p) => `withdrawal:${p.withdrawal_id}`,
  }),
  [Topics.WithdrawalsScreeningStatus]: request<ScreeningStatus>()(ScreeningStatusQuery),
  /** One key for every change of the lists: changes are applied in turn, each with the withdrawals it fails. */
  [Topics.WithdrawalsReplaceSdnList]: request<ReplaceSdnListResult>()(ReplaceSdnListCommand, {
    refusals: ['invalid_transition'],
    key: () => 'screening',
  }),
  [Topics.WithdrawalsDenyList]: request<DenyListPage>()(DenyListQuery),
  [Topics.WithdrawalsDenyListAdd]: request<DenyListAddResult>()(DenyListAddCommand, { key: () => 'screening' }),
  [Topics.WithdrawalsDenyListRemove]: request<DenyListEntryView>()(DenyListRemoveCommand, {
    refusals: ['not_found'],
    key: () => 'screening',
  }),
  /** Keyed by partner: one partner's limit changes are applied in turn. */
  [Topics.WithdrawalsSetLimits]: request<LimitsView>()(SetLimitsCommand, { refusals: ['user_not_found'], key: byPartner }),
  [Topics.WithdrawalsPartnerLimits]: request<LimitsView>()(GetPartnerLimitsQuery),
  [Topics.WithdrawalsUserLimits]: request<UserLimitsView>()(GetUserLimitsQuery, { refusals: ['user_not_found'], key: byUser }),
  [Topics.WithdrawalsApprovals]: request<WithdrawalApprovalList>()(ListWithdrawalApprovalsQuery),
  [Topics.WithdrawalsApproval]: request<WithdrawalApproval>()(GetWithdrawalApprovalQuery, { refusals: ['not_found'] }),
  /** Keyed by approval: two operators' decisions on one are handled in turn. */
  [Topics.WithdrawalsDecideApproval]: request<WithdrawalApproval>()(DecideWithdrawalApprovalCommand, {
    refusals: ['not_found', 'invalid_transition'],
    key: (p) => `approval:${p.approval_id}`,
  }),
  /** One key for the reports: made and filed in turn, so a withdrawal is in one filed report at most. */
  [Topics.WithdrawalsCreateReport]: request<WithdrawalReportCreated>()(CreateWithdrawalReportCommand, { key: () => 'reports' }),
  [Topics.WithdrawalsReport]: request<WithdrawalReportPage>()(WithdrawalReportQuery, { refusals: ['not_found'] }),
  [Topics.WithdrawalsFileReport]: request<WithdrawalReportPage>()(FileWithdrawalReportCommand, {
    refusals: ['not_found', 'invalid_transition'],
    key: () => 'reports',
  }),
  [Topics.WithdrawalsSetPolicy]: request<WithdrawalPolicyView>()(SetWithdrawalPolicyCommand, { key: byPartner }),
  [Topics.WithdrawalsPolicy]: request<WithdrawalPolicyView>()(GetWithdrawalPolicyQuery),
  /** Keyed by user: one user's address book changes in turn. */
  [Topics.WithdrawalsSaveAddress]: request<SavedAddressView>()(SaveAddressCommand, {
    refusals: ['invalid_address', 'user_not_found', 'invalid_proof'],
    key: byUser,
  }),
  [Topics.WithdrawalsRemoveAddress]: request<SavedAddressView>()(RemoveAddressCommand, { refusals: ['not_found'], key: byUser }),
  [Topics.WithdrawalsAddresses]: request<SavedAddressList>()(ListAddressesQuery, { refusals: ['user_not_found'] }),
  [Topics.WithdrawalsPing]: request<PingResult>()(PingQuery),
  [Topics.EventsList]: request<ListEventsResult>()(ListEventsQuery),
  [Topics.EventsMarkDelivered]: request<MarkEventDeliveredResult>()(MarkEventDeliveredCommand, { refusals: ['not_found'], key: byPartner }),
  [Topics.EventsAck]: request<AckEventsResult>()(AckEventsCommand, { key: byPartner }),
  [Topics.EventsPing]: request<PingResult>()(PingQuery),
  /** Both key commands by user: every request about one user's key is handled in turn (the unique index still holds alone). */
  [Topics.PixKeysCreate]: request<PixKeyCommandResult>()(CreatePixKeyCommand, {
    refusals: [
      'invalid_document',
      'user_not_found',
      'already_exists',
      'holder_name_missing',
      'holder_name_invalid',
      'idempotency_key_reused',
    ],
    key: byUser,
  }),
  [Topics.PixKeysDelete]: request<PixKeyCommandResult>()(DeletePixKeyCommand, {
    refusals: ['invalid_document', 'not_found', 'idempotency_key_reused'],
    key: byUser,
  }),
  [Topics.PixKeysGet]: request<GetPixKeyResult>()(GetPixKeyQuery, { refusals: ['invalid_document', 'not_found'] }),
  [Topics.PixKeysList]: request<ListPixKeysResult>()(ListPixKeysQuery, { refusals: ['invalid_document'] }),
  [Topics.PixKeysUpsertUser]: request<UpsertUserResult>()(UpsertUserCommand, { key: byUser }),
  [Topics.PixKeysPing]: request<PingResult>()(PingQuery),
  /** By user, as every command about one user's key. */
  [Topics.PixKeysConfirmClaim]: request<PixKeyClaimDecisionResult>()(ConfirmPixKeyClaimCommand, {
    refusals: ['invalid_document', 'claim_not_found', 'claim_not_pending'],
    key: byUser,
  }),
  [Topics.PixKeysCancelClaim]: request<PixKeyClaimDecisionResult>()(CancelPixKeyClaimCommand, {
    refusals: ['invalid_document', 'claim_not_found', 'claim_not_pending'],
    key: byUser,
  }),
  /**
   * Keyed by partner and CNPJ, so registrations of one CNPJ (the retries of one request under its idempotency
   * key included) land on one partition and are handled in turn.
   */
  [Topics.CustomersCreateBusiness]: request<CreateBusinessCustomerCommandResult>()(CreateBusinessCustomerCommand, {
    refusals: [
      'invalid_cnpj',
      'invalid_phone',
      'invalid_owner',
      'already_exists',
      'idempotency_key_reused',
      'sms_country_not_allowed',
      'sms_quota_exceeded',
    ],
    key: (p) => `${p.partner_id}:${p.cnpj}`,
  }),
  [Topics.CustomersGet]: request<GetBusinessCustomerResult>()(GetBusinessCustomerQuery, { refusals: ['not_found'] }),
  [Topics.CustomersList]: request<ListBusinessCustomersResult>()(ListBusinessCustomersQuery, { refusals: ['invalid_cnpj'] }),
  /** not_found: the partner has no business customer with that id. */
  [Topics.CustomersListOwnerNotifications]: request<ListOwnerNotificationsResult>()(ListOwnerNotificationsQuery, {
    refusals: ['not_found'],
  }),
  [Topics.CustomersPing]: request<PingResult>()(PingQuery),
  [Topics.InflowsList]: request<ListPixInflowsResult>()(ListPixInflowsQuery),
  [Topics.InflowsUpsertUser]: request<UpsertUserResult>()(UpsertUserCommand, { key: byUser }),
  [Topics.InflowsSimulatePixIn]: request<SimulatePixInResult>()(SimulatePixInCommand, {
    refusals: ['user_not_found', 'pix_key_not_registered', 'idempotency_key_reused'],
    key: byUser,
  }),
  /** Keyed by end-to-end id: the notifications of one inflow are applied in turn. */
  [Topics.InflowsIngest]: request<IngestPixInflowResult>()(IngestPixInflowCommand, {
    refusals: ['invalid_transition', 'end_to_end_id_conflict', 'account_not_found', 'account_blocked', 'account_closed'],
    key: (p) => p.end_to_end_id,
  }),
  [Topics.InflowsGetBalance]: request<BrlBalance>()(GetBrlBalanceQuery, { refusals: ['user_not_found'], key: byUser }),
  /** A cursor the service did not issue is invalid_request (field cursor). */
  [Topics.InflowsLedger]: request<BrlLedgerPage>()(GetBrlLedgerQuery, { refusals: ['user_not_found'] }),
  [Topics.InflowsListUnmatched]: request<UnmatchedPixInflowsPage>()(ListUnmatchedPixInflowsQuery),
  [Topics.InflowsSetAccountStatus]: request<AccountStatusView>()(SetAccountStatusCommand, {
    refusals: ['user_not_found', 'account_closed', 'account_not_empty'],
    key: byUser,
  }),
  /** A cursor the service did not issue is invalid_request (field cursor). */
  [Topics.InflowsListMedCases]: request<MedCasesPage>()(ListMedCasesQuery),
  /** By case: the decisions of one case apply one after the other (the first one wins, the others are med_case_not_open). */
  [Topics.InflowsDecideMedCase]: request<MedCaseView>()(DecideMedCaseCommand, {
    refusals: ['med_case_not_found', 'med_case_not_open', 'med_decision_invalid', 'invalid_amount', 'not_implemented'],
    key: (c) => `med_case:${c.case_id}`,
  }),
  /** By inflow: the refunds of one inflow are created one after the other (its amount bounds them all). */
  [Topics.InflowsRefund]: request<RefundPixInResult>()(RefundPixInCommand, {
    refusals: [
      'not_implemented',
      'invalid_amount',
      'not_found',
      'idempotency_key_reused',
      'pix_in_not_refundable',
      'refund_exceeds_amount',
      'refund_window_closed',
      'insufficient_funds',
    ],
    key: (p) => p.end_to_end_id,
  }),
  [Topics.InflowsGet]: request<PixInflowDetail>()(GetPixInflowQuery, { refusals: ['not_found'] }),
  [Topics.InflowsPing]: request<PingResult>()(PingQuery),
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
  /** By user as the key's own events: a claim's events and the key's reach the feed in the order they happened. */
  [Topics.PixKeyClaimChanged]: event(PixKeyClaimChangedEvent, (e) => `pix_key:${e.partner_id}:${e.resource.document}`),
  /** By payment: a payment's cases (a report, then the refund request that follows it) reach inflows in order. */
  [Topics.PixKeysMedCaseReceived]: event(MedCaseReceivedEvent, (e) => `pix_in:${e.end_to_end_id}`),
  /** By payment, as the case's MedCaseReceived: the cancellation reaches inflows after it. */
  [Topics.PixKeysMedCaseCancelled]: event(MedCaseCancelledEvent, (e) => `pix_in:${e.end_to_end_id}`),
  /** By case, so its events stay in order. */
  [Topics.MedCaseChanged]: event(MedCaseChangedEvent, (e) => `med_case:${e.case_id}`),
  /** By inflow, so its events stay in order. */
  [Topics.PixInStateChanged]: event(PixInStateChangedEvent, (e) => `pix_in:${e.resource_id}`),
  /** By refund, so its events stay in order. */
  [Topics.PixInRefundStateChanged]: event(PixInRefundStateChangedEvent, (e) => `pix_in_refund:${e.resource_id}`),
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
/** The codes of a topic's own refusals (its `refusals`). */
export type RequestRefusal<T extends RequestTopic> =
  (typeof requestContracts)[T] extends RequestContract<infer _P, unknown, infer C> ? C : never;
/**
 * The error codes a topic's reply may carry: its refusals and `invalid_request` (outside the conditional
 * type, so that even a generic topic's reply may carry it). A handler answering another one does not compile.
 */
export type RequestErrorCode<T extends RequestTopic> = RequestRefusal<T> | InvalidRequest;
export type RequestReply<T extends RequestTopic> = Reply<RequestResult<T>, RequestErrorCode<T>>;
export type EventPayload<T extends EventTopic> = (typeof eventContracts)[T] extends EventContract<infer P> ? P : never;

// The maps seen per topic, so that a generic topic indexes its own key function, payload class and
// codes (TypeScript's "correlated union" pattern): assigning the maps here checks each contract against its topic.
const requestsByTopic: {
  readonly [T in RequestTopic]: {
    readonly payload: ClassConstructor<RequestPayload<T>>;
    readonly key?: (payload: RequestPayload<T>) => string;
    readonly refusals: readonly RequestRefusal<T>[];
    readonly errorCodes: readonly RequestErrorCode<T>[];
  };
} = requestContracts;
const eventKeys: { readonly [T in EventTopic]: { readonly key: (payload: EventPayload<T>) => string } } = eventContracts;

/** The Kafka key of a request, from its contract; null for a request that needs no order (a read). */
export function requestKeyOf<T extends RequestTopic>(topic: T, payload: RequestPayload<T>): string | null {
  const key = requestsByTopic[topic].key;
  return key ? key(payload) : null;
}

/** The class a request topic's payload is validated with, typed by its topic. */
export function requestPayloadClassOf<T extends RequestTopic>(topic: T): ClassConstructor<RequestPayload<T>> {
  return requestsByTopic[topic].payload;
}

/** A topic's own refusals: the codes its payload's validation may answer besides `invalid_request`. */
export function requestRefusalsOf<T extends RequestTopic>(topic: T): readonly RequestRefusal<T>[] {
  return requestsByTopic[topic].refusals;
}

/** The RequestErrorCode<T> a value read off the wire (a reply's code) is, or undefined: the guard of a reply. */
export function requestErrorCodeOf<T extends RequestTopic>(topic: T, value: unknown): RequestErrorCode<T> | undefined {
  return requestsByTopic[topic].errorCodes.find((code) => code === value);
}

/** The Kafka key of an event, from its contract. */
export function eventKeyOf<T extends EventTopic>(topic: T, payload: EventPayload<T>): string {
  return eventKeys[topic].key(payload);
}

/** The class that validates a topic's payload, whichever kind of topic it is. */
export function payloadClassOf(topic: RequestTopic | EventTopic): ClassConstructor<object> {
  return topic in requestContracts ? requestContracts[topic as RequestTopic].payload : eventContracts[topic as EventTopic].payload;
}

export const requestTopics = Object.keys(requestContracts) as RequestTopic[];
export const eventTopics = Object.keys(eventContracts) as EventTopic[];
