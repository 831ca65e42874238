/**
 * Every Kafka topic of the system: `<domain>.<command|query|event>.<name>.v<version>`.
 * A breaking change to a payload gets a new version (a new topic), never an edit in place.
 * Request-reply topics also have a `<topic>.reply` companion, created with the same partitions.
 */
export const Topics = {
  WithdrawalsCreate: 'withdrawals.command.create.v1',
  WithdrawalsUpsertUser: 'withdrawals.command.upsert-user.v1',
  /** v2: an idempotency key and a reference (v1, the sandbox's credit without them, is retired). */
  WithdrawalsCreditAccount: 'withdrawals.command.credit-account.v2',
  WithdrawalsGetBalance: 'withdrawals.query.get-balance.v1',
  WithdrawalsGet: 'withdrawals.query.get.v1',
  WithdrawalsList: 'withdrawals.query.list.v1',
  /** The operator API's listings: a partner's users, a user's ledger. */
  WithdrawalsListUsers: 'withdrawals.query.list-users.v1',
  WithdrawalsLedger: 'withdrawals.query.ledger.v1',
  /** The operator API's chain views: the hot wallets, a reconciliation run and its findings. */
  WithdrawalsHotWallets: 'withdrawals.query.hot-wallets.v1',
  WithdrawalsReconcile: 'withdrawals.command.reconcile.v1',
  WithdrawalsFindings: 'withdrawals.query.reconciliation-findings.v1',
  WithdrawalsFindingStep: 'withdrawals.command.reconciliation-finding-step.v1',
  /** The operator cancels the nonce a withdrawal's payout holds (docs/operations/payouts.md). */
  WithdrawalsCancelPayout: 'withdrawals.command.cancel-payout.v1',
  /** Screening of destinations (docs/operations/screening.md): the lists' state, the SDN copy, the operator's deny list. */
  WithdrawalsScreeningStatus: 'withdrawals.query.screening-status.v1',
  WithdrawalsReplaceSdnList: 'withdrawals.command.replace-sdn-list.v1',
  WithdrawalsDenyList: 'withdrawals.query.deny-list.v1',
  WithdrawalsDenyListAdd: 'withdrawals.command.deny-list-add.v1',
  WithdrawalsDenyListRemove: 'withdrawals.command.deny-list-remove.v1',
  /** Withdrawal limits (docs/operations/limits.md): the operator sets and reads them, a partner reads a user's with their use. */
  WithdrawalsSetLimits: 'withdrawals.command.set-limits.v1',
  WithdrawalsPartnerLimits: 'withdrawals.query.partner-limits.v1',
  WithdrawalsUserLimits: 'withdrawals.query.user-limits.v1',
  /** Withdrawals above their partner's approval threshold, for the operator's approvals (docs/operations/approvals.md). */
  WithdrawalsApprovals: 'withdrawals.query.approvals.v1',
  WithdrawalsApproval: 'withdrawals.query.approval.v1',
  WithdrawalsDecideApproval: 'withdrawals.command.decide-approval.v1',
  /** The operator's report of settled withdrawals to the Receita Federal (docs/operations/reports.md). */
  WithdrawalsCreateReport: 'withdrawals.command.create-withdrawal-report.v1',
  WithdrawalsReport: 'withdrawals.query.withdrawal-report.v1',
  WithdrawalsFileReport: 'withdrawals.command.file-withdrawal-report.v1',
  /** What a partner's withdrawals must carry (beneficiary, saved addresses), and each user's address book. */
  WithdrawalsSetPolicy: 'withdrawals.command.set-withdrawal-policy.v1',
  WithdrawalsPolicy: 'withdrawals.query.withdrawal-policy.v1',
  WithdrawalsSaveAddress: 'withdrawals.command.save-address.v1',
  WithdrawalsRemoveAddress: 'withdrawals.command.remove-address.v1',
  WithdrawalsAddresses: 'withdrawals.query.addresses.v1',
  WithdrawalsPing: 'withdrawals.query.ping.v1',
  WithdrawalStateChanged: 'withdrawals.event.state-changed.v1',
  /** For internal consumers (an upstream ledger); not projected into the partners' events feed. */
  AccountCredited: 'withdrawals.event.account-credited.v1',

  EventsList: 'events.query.list.v1',
  EventsMarkDelivered: 'events.command.mark-delivered.v1',
  EventsAck: 'events.command.ack.v1',
  EventsPing: 'events.query.ping.v1',

  PixKeysCreate: 'pix-keys.command.create.v1',
  PixKeysDelete: 'pix-keys.command.delete.v1',
  PixKeysGet: 'pix-keys.query.get.v1',
  PixKeysList: 'pix-keys.query.list.v1',
  PixKeysUpsertUser: 'pix-keys.command.upsert-user.v1',
  PixKeysPing: 'pix-keys.query.ping.v1',
  PixKeyStateChanged: 'pix-keys.event.state-changed.v1',
  /** A partner's decision on a claim of its key (docs/api.md, "Claims"). */
  PixKeysConfirmClaim: 'pix-keys.command.confirm-claim.v1',
  PixKeysCancelClaim: 'pix-keys.command.cancel-claim.v1',
  /** Claims of the partners' keys, for the feed (`pix_key` events whose state is a claim's: claim_received...). */
  PixKeyClaimChanged: 'pix-keys.event.claim-changed.v1',
  /** A MED case DICT holds against a payment this operator received, for the inflows service (docs/operations/pix-and-dict.md, "MED"). */
  PixKeysMedCaseReceived: 'pix-keys.event.med-case-received.v1',
  /** A MED case told with PixKeysMedCaseReceived that its opener cancelled in DICT, for the inflows service. */
  PixKeysMedCaseCancelled: 'pix-keys.event.med-case-cancelled.v1',

  CustomersCreateBusiness: 'customers.command.create-business.v1',
  CustomersGet: 'customers.query.get.v1',
  CustomersList: 'customers.query.list.v1',
  /** The operator API's view of a business customer's owner notifications. */
  CustomersListOwnerNotifications: 'customers.query.list-owner-notifications.v1',
  CustomersPing: 'customers.query.ping.v1',
  BusinessCustomerRegistered: 'customers.event.business-registered.v1',

  InflowsList: 'inflows.query.list.v1',
  InflowsUpsertUser: 'inflows.command.upsert-user.v1',
  InflowsSimulatePixIn: 'inflows.command.simulate-pix-in.v1',
  /** v2: the receiving account and key identify the receiver, as an SPI credit notification does (v1, by partner id and CPF, is retired). */
  InflowsIngest: 'inflows.command.ingest.v2',
  /** The BRL account: a user's balance, their ledger (operator API), and the inflows kept aside (no user has their account). */
  InflowsGetBalance: 'inflows.query.get-balance.v1',
  InflowsLedger: 'inflows.query.brl-ledger.v1',
  InflowsListUnmatched: 'inflows.query.list-unmatched.v1',
  InflowsSetAccountStatus: 'inflows.command.set-account-status.v1',
  /** The MED cases, for the operator (GET /admin/v1/med-cases). */
  InflowsListMedCases: 'inflows.query.list-med-cases.v1',
  /** The operator's decision on a MED case (POST /admin/v1/med-cases/{case_id}/decision). */
  InflowsDecideMedCase: 'inflows.command.decide-med-case.v1',
  /** A partner's refund (devolução) of a credited inflow, and one inflow with its refunds. */
  InflowsRefund: 'inflows.command.refund-pix-in.v1',
  InflowsGet: 'inflows.query.get.v1',
  InflowsPing: 'inflows.query.ping.v1',
  PixInStateChanged: 'inflows.event.state-changed.v1',
  PixInRefundStateChanged: 'inflows.event.refund-state-changed.v1',
  /** A MED case's status at the inflows service; once decided, for the pix-keys service to close it in DICT. */
  MedCaseChanged: 'inflows.event.med-case-changed.v1',

  /** Broadcast to every gateway instance (docs/api.md: "Operator API"). */
  GatewayApiKeyRevoked: 'gateway.event.api-key-revoked.v1',
  /** Broadcast to every gateway instance: a partner was disabled or re-enabled (docs/api.md: "Operator API"). */
  GatewayPartnerStatusChanged: 'gateway.event.partner-status-changed.v1',

  /** The simulated Pix payment network (SPI) announcing an incoming payment; consumed by inflows. */
  SpiPixReceived: 'spi.event.pix-received.v1',
} as const;

export type TopicName = (typeof Topics)[keyof typeof Topics];
