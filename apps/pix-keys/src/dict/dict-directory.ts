import { AccountType } from '@partner/contracts';

/**
 * The port to DICT, the Central Bank's directory of Pix keys (its API: vendor/bacen-pix-dict-api,
 * `openapi/openapi.yaml`). The service registers the user's CPF or a random key (EVP) as a key (createEntry), deletes it
 * (deleteEntry) and reads its own entries back for the reconciliation by their CID (getEntryByCid: getEntry is
 * for a payment's lookup and refuses the participant's own entries). The production adapter is
 * BacenDictDirectory (XML signed with XML-DSig over mutual TLS); the stack's default DICT is the test
 * server of tools/dict-test-server/, which speaks the same API.
 */
export interface DictDirectory {
  /** createEntry (`POST /entries/`): idempotent by `requestId`, which must be the same on every retry. */
  createEntry(request: CreateEntryRequest): Promise<DictAnswer<DictRegisteredEntry>>;
  /** deleteEntry (`POST /entries/{Key}/delete`): the entry of `key` at this participant. DICT gives it no request id. */
  deleteEntry(key: string, reason: DeleteReason): Promise<DictAnswer<{ key: string }>>;
  /** getEntryByCid (`GET /cids/entries/{Cid}`): this participant's active entry of that content (dict-entry.ts: entryCid). */
  getEntryByCid(cid: string): Promise<DictAnswer<DictRegisteredEntry>>;
  /** listClaims (`GET /claims/`): this participant's claims, ascending by LastModified (CLAIMS_LIST_WITH_ROLE: 40 a minute). */
  listClaims(filter: DictClaimFilter): Promise<DictAnswer<{ claims: DictClaim[]; hasMore: boolean }>>;
  /** acknowledgeClaim (`POST /claims/{ClaimId}/acknowledge`): the donor received an OPEN claim; idempotent. */
  acknowledgeClaim(claimId: string): Promise<DictAnswer<DictClaim>>;
  /** confirmClaim: the donor releases the key (DICT removes the donor's entry); idempotent with the same reason. */
  confirmClaim(claimId: string, reason: DictClaimReason): Promise<DictAnswer<DictClaim>>;
  /** cancelClaim: the donor (or claimer) ends the claim, the key staying where it is; idempotent with the same reason. */
  cancelClaim(claimId: string, reason: DictClaimReason): Promise<DictAnswer<DictClaim>>;
  /** createClaim (`POST /claims/`): this operator claims a key held at another participant. Not idempotent (a repeat is ClaimAlreadyExistsForKey). */
  createClaim(claim: DictClaimRequest): Promise<DictAnswer<DictClaim>>;
  /** completeClaim: the claimer's entry is created once the donor confirmed; idempotent by `requestId`, as createEntry. */
  completeClaim(claimId: string, requestId: string): Promise<DictAnswer<DictClaim>>;
  /** listInfractionReports (`GET /infraction-reports/`): ascending by LastModified (INFRACTION_REPORTS_LIST_WITH_ROLE: 40 a minute). */
  listInfractionReports(filter: DictInfractionReportFilter): Promise<DictAnswer<{ reports: DictInfractionReport[]; hasMore: boolean }>>;
  /** getInfractionReport (`GET /infraction-reports/{id}`): one report as DICT now has it (INFRACTION_REPORTS_READ: 600 a minute). */
  getInfractionReport(id: string): Promise<DictAnswer<DictInfractionReport>>;
  /** acknowledgeInfractionReport: the credited participant received a report the debited one opened; idempotent. */
  acknowledgeInfractionReport(id: string): Promise<DictAnswer<DictInfractionReport>>;
  /** closeInfractionReport: the analysis of an ACKNOWLEDGED report; idempotent with the same result and details. */
  closeInfractionReport(id: string, close: DictInfractionReportClose): Promise<DictAnswer<DictInfractionReport>>;
  /** listRefunds (`GET /refunds/`): ascending by LastModified (REFUND_LIST_WITH_ROLE: 40 a minute). */
  listRefunds(filter: DictRefundFilter): Promise<DictAnswer<{ refunds: DictRefund[]; hasMore: boolean }>>;
  /** getRefund (`GET /refunds/{id}`): one refund request as DICT now has it (REFUNDS_READ: 1200 a minute). */
  getRefund(id: string): Promise<DictAnswer<DictRefund>>;
  /** closeRefund: the contested participant's answer to an OPEN refund request; idempotent with the same fields. */
  closeRefund(id: string, close: DictRefundClose): Promise<DictAnswer<DictRefund>>;
}

/** DICT's InfractionReportStatus, InfractionType, AnalysisResult. */
export type DictInfractionReportStatus = 'OPEN' | 'ACKNOWLEDGED' | 'CLOSED' | 'CANCELLED';
export type DictInfractionType = 'FRAUD' | 'REFUND_REQUEST' | 'REFUND_CANCELLED';
export type DictAnalysisResult = 'AGREED' | 'DISAGREED';

/** DICT's `ExtendedInfractionReport`, as this service reads it. */
export interface DictInfractionReport {
  id: string;
  transactionId: string;
  infractionType: DictInfractionType;
  reportedBy: 'DEBITED_PARTICIPANT' | 'CREDITED_PARTICIPANT';
  reportDetails: string | null;
  status: DictInfractionReportStatus;
  debitedParticipant: string;
  creditedParticipant: string;
  creationTime: Date;
  lastModified: Date;
  analysisResult: DictAnalysisResult | null;
  analysisDetails: string | null;
}

/** listInfractionReports' query (Participant is always this operator's; details always included). */
export interface DictInfractionReportFilter {
  isDebited?: boolean;
  isCredited?: boolean;
  status?: DictInfractionReportStatus[];
  modifiedAfter?: Date;
  limit: number;
}

export interface DictInfractionReportClose {
  result: DictAnalysisResult;
  details: string | null;
}

/** DICT's RefundStatus, RefundReason, RefundAnalysisResult, RefundRejectionReason. */
export type DictRefundStatus = 'OPEN' | 'CLOSED' | 'CANCELLED';
export type DictRefundReason = 'FRAUD' | 'OPERATIONAL_FLAW' | 'REFUND_CANCELLED';
export type DictRefundResult = 'TOTALLY_ACCEPTED' | 'PARTIALLY_ACCEPTED' | 'REJECTED';
export type DictRefundRejectionReason = 'NO_BALANCE' | 'ACCOUNT_CLOSURE' | 'CANNOT_REFUND' | 'OTHER';

/** DICT's `ExtendedRefund`, as this service reads it: RefundAmount (a decimal of reais) in cents. */
export interface DictRefund {
  id: string;
  transactionId: string;
  refundReason: DictRefundReason;
  amountCents: number;
  refundDetails: string | null;
  status: DictRefundStatus;
  requestingParticipant: string;
  contestedParticipant: string;
  creationTime: Date;
  lastModified: Date;
  infractionReportId: string | null;
  analysisResult: DictRefundResult | null;
  analysisDetails: string | null;
  rejectionReason: DictRefundRejectionReason | null;
  refundTransactionId: string | null;
}

/** listRefunds' query (Participant is always this operator's; details always included). */
export interface DictRefundFilter {
  role: 'REQUESTING' | 'CONTESTED';
  status?: DictRefundStatus[];
  modifiedAfter?: Date;
  limit: number;
}

/** closeRefund's fields: an accepted request names its devolução (RefundTransactionId), a rejected one its reason. */
export type DictRefundClose =
  | { result: 'TOTALLY_ACCEPTED' | 'PARTIALLY_ACCEPTED'; details: string | null; refundTransactionId: string }
  | { result: 'REJECTED'; details: string | null; rejectionReason: DictRefundRejectionReason };

/** DICT's `Claim` as this operator, the claimer, sends it: the key, and the account and owner it is to point at. */
export interface DictClaimRequest {
  type: DictClaimType;
  key: string;
  keyType: DictKeyType;
  claimerAccount: DictAccount;
  claimer: DictOwner;
}

/** DICT's ClaimType, ClaimStatus, ClaimOperationReason. */
export type DictClaimType = 'OWNERSHIP' | 'PORTABILITY';
export type DictClaimStatus = 'OPEN' | 'WAITING_RESOLUTION' | 'CONFIRMED' | 'CANCELLED' | 'COMPLETED';
export type DictClaimReason = 'USER_REQUESTED' | 'ACCOUNT_CLOSURE' | 'FRAUD' | 'DEFAULT_OPERATION' | 'RECONCILIATION';

/** DICT's `ExtendedClaim`, as this service reads it. */
export interface DictClaim {
  id: string;
  type: DictClaimType;
  key: string;
  keyType: string;
  claimerParticipant: string;
  claimerTaxIdNumber: string;
  donorParticipant: string;
  status: DictClaimStatus;
  resolutionPeriodEnd: Date;
  completionPeriodEnd: Date | null;
  lastModified: Date;
  confirmReason: DictClaimReason | null;
  cancelReason: DictClaimReason | null;
  cancelledBy: 'DONOR' | 'CLAIMER' | null;
}

/** listClaims' query (its parameters; Participant is always this operator's). */
export interface DictClaimFilter {
  isDonor?: boolean;
  isClaimer?: boolean;
  status?: DictClaimStatus[];
  modifiedAfter?: Date;
  limit: number;
}

export const DICT_DIRECTORY = Symbol('DictDirectory');

/** DICT's `BrazilianAccount`. */
export interface DictAccount {
  /** The ISPB of the institution that holds the account (this operator's). */
  participant: string;
  branch: string;
  accountNumber: string;
  accountType: AccountType;
  openingDate: Date;
}

/** DICT's `NaturalPerson` (a CPF key's owner is a natural person, its CPF the key). */
export interface DictOwner {
  type: 'NATURAL_PERSON';
  taxIdNumber: string;
  name: string;
}

/** The key types this service registers: CPF, and EVP (a random key DICT generates). */
export type DictKeyType = 'CPF' | 'EVP';

/**
 * DICT's `Entry`: a key, the account it points at and the account's owner. An EVP entry is sent without its key
 * (DICT generates it: openapi.yaml, "Chave", EVP "é gerado pelo DICT"); DICT's answer carries it.
 */
export interface DictEntry {
  key?: string;
  keyType: DictKeyType;
  account: DictAccount;
  owner: DictOwner;
}

/** DICT's `ExtendedEntry`: the entry as DICT answers it, its key always there. */
export interface DictRegisteredEntry extends DictEntry {
  key: string;
  creationDate: Date;
  keyOwnershipDate: Date;
}

export interface CreateEntryRequest {
  entry: DictEntry;
  /** DICT's RequestId: a UUID v4, unique per participant, the same on every retry of one registration. */
  requestId: string;
  reason: 'USER_REQUESTED';
}

export type DeleteReason = 'USER_REQUESTED';

/** An RFC 7807 problem as DICT answers a refusal (`type` ends in the error's name, e.g. `EntryKeyInCustodyOfDifferentParticipant`). */
export interface DictProblem {
  /** The last segment of the problem's `type` (`https://dict.pi.rsfn.net.br/api/v1/error/<TipoErro>`). */
  type: string;
  status: number;
  title: string;
  detail: string | null;
}

/**
 * What a call came to: `done`; `refused`, a problem DICT answered (a 4xx); or `unavailable`: no answer
 * to rely on (a timeout, a connection that failed, a 5xx or 429, an answer whose signature or shape is
 * wrong). Only `unavailable` is worth the same call again later as it is; a refusal is for the caller to judge.
 */
export type DictAnswer<T> = { outcome: 'done'; value: T } | { outcome: 'refused'; problem: DictProblem } | DictUnavailable;

export interface DictUnavailable {
  outcome: 'unavailable';
  reason: string;
  /** DICT's `Retry-After` (429, 503), in milliseconds: no call of this kind before then. */
  retryAfterMs?: number;
  /** A 4xx answer whose signature did not verify: a refusal, probably, that cannot be believed (see the queue's cap). */
  untrustedRefusal?: boolean;
}
