/**
 * The DICT test server's MED cases (vendor/bacen-pix-dict-api, `openapi/openapi.yaml`, tags "InfractionReport" and
 * "Refund"): infraction reports and refund requests, for any participant: the one whose certificates the server trusts
 * calls them over HTTP (as the credited or contested participant), a spec plays the debited one through `as(ispb)`.
 *
 * The document's rules, as its descriptions state them:
 *   - a report is opened by the debited (or credited) participant, OPEN; one report in progress per transaction
 *     (InfractionReportAlreadyBeingProcessedForTransaction);
 *   - OPEN → ACKNOWLEDGED (acknowledgeInfractionReport, by the other side; idempotent while ACKNOWLEDGED) → CLOSED
 *     (closeInfractionReport, by the other side, only from ACKNOWLEDGED, with an AnalysisResult); CANCELLED by its
 *     creator while not closed;
 *   - a refund request is opened by the debited participant alone, OPEN; one in progress per transaction
 *     (RefundAlreadyBeingProcessedForTransaction); a FRAUD one follows a report of its transaction
 *     (RefundInfractionReportNotFound) and names it (InfractionReportId);
 *   - OPEN → CLOSED (closeRefund, by the contested participant alone, only from OPEN): accepted with the devolução's
 *     RefundTransactionId, rejected with a RefundRejectionReason; CANCELLED by its creator while OPEN;
 *   - each operation idempotent with the same parameters; a status that does not allow it answers
 *     InfractionReportOperationInvalid / RefundOperationInvalid.
 */
import { randomUUID } from 'node:crypto';
import { lines, Problem } from './dict-problem';

export type InfractionReportStatus = 'OPEN' | 'ACKNOWLEDGED' | 'CLOSED' | 'CANCELLED';
export type RefundStatus = 'OPEN' | 'CLOSED' | 'CANCELLED';

export interface TestInfractionReport {
  id: string;
  transactionId: string;
  infractionType: string;
  reportedBy: 'DEBITED_PARTICIPANT' | 'CREDITED_PARTICIPANT';
  reportDetails?: string;
  status: InfractionReportStatus;
  debitedParticipant: string;
  creditedParticipant: string;
  creationTime: string;
  lastModified: string;
  analysisResult?: string;
  analysisDetails?: string;
}

export interface TestRefund {
  id: string;
  transactionId: string;
  refundReason: string;
  /** As DICT writes it: reais with two decimals ("200.00"). */
  refundAmount: string;
  refundDetails?: string;
  status: RefundStatus;
  requestingParticipant: string;
  contestedParticipant: string;
  creationTime: string;
  lastModified: string;
  infractionReportId?: string;
  analysisResult?: string;
  analysisDetails?: string;
  refundRejectionReason?: string;
  refundTransactionId?: string;
}

/** A report as its creator opens it: the transaction and the participant on its other side (DICT knows it from the SPI). */
export interface InfractionReportInput {
  transactionId: string;
  infractionType: 'FRAUD' | 'REFUND_REQUEST' | 'REFUND_CANCELLED';
  reportDetails?: string;
  /** The credited participant, when the debited one reports (the default); the debited one otherwise. */
  counterparty: string;
  reportedBy?: 'DEBITED_PARTICIPANT' | 'CREDITED_PARTICIPANT';
}

/** A refund request as the debited participant opens it, with the participant it contests. */
export interface RefundInput {
  transactionId: string;
  refundReason: 'FRAUD' | 'OPERATIONAL_FLAW' | 'REFUND_CANCELLED';
  refundAmount: string;
  refundDetails?: string;
  contestedParticipant: string;
}

export interface ReportClose {
  result: string;
  details?: string;
}

export interface RefundClose {
  result: string;
  details?: string;
  rejectionReason?: string;
  refundTransactionId?: string;
}

/** The filters of listInfractionReports and listRefunds (their query parameters). */
export interface MedFilter {
  isDebited?: boolean;
  isCredited?: boolean;
  /** listRefunds' ParticipantRole. */
  role?: 'REQUESTING' | 'CONTESTED';
  status?: string[];
  includeDetails: boolean;
  modifiedAfter?: string;
  modifiedBefore?: string;
  limit: number;
}

const notFound = (what: string) => new Problem(404, 'NotFound', 'Not found', `${what} not found`);
const forbidden = () => new Problem(403, 'Forbidden', 'Forbidden', 'Participant is not allowed to access this resource');
const reportInvalid = (r: TestInfractionReport, what: string) =>
  new Problem(
    400,
    'InfractionReportOperationInvalid',
    'Infraction report operation invalid',
    `The report is ${r.status}: it cannot be ${what}`,
  );
const refundInvalid = (r: TestRefund, what: string) =>
  new Problem(400, 'RefundOperationInvalid', 'Refund operation invalid', `The refund request is ${r.status}: it cannot be ${what}`);

const byLastModified = <T extends { lastModified: string }>(a: T, b: T) =>
  a.lastModified < b.lastModified ? -1 : a.lastModified > b.lastModified ? 1 : 0;

export class TestMed {
  readonly reports = new Map<string, TestInfractionReport>();
  readonly refunds = new Map<string, TestRefund>();

  constructor(private readonly now: () => Date) {}

  createInfractionReport(caller: string, input: InfractionReportInput): TestInfractionReport {
    const reportedBy = input.reportedBy ?? 'DEBITED_PARTICIPANT';
    if (!/^\w{8,32}$/.test(input.transactionId))
      throw new Problem(400, 'InfractionReportInvalid', 'Infraction report is invalid', 'TransactionId is not a transaction');
    const inProgress = [...this.reports.values()].find(
      (r) => r.transactionId === input.transactionId && (r.status === 'OPEN' || r.status === 'ACKNOWLEDGED'),
    );
    if (inProgress)
      throw new Problem(
        400,
        'InfractionReportAlreadyBeingProcessedForTransaction',
        'Infraction report already being processed for transaction',
        'The transaction has a report in progress',
      );
    const at = this.now().toISOString();
    const debited = reportedBy === 'DEBITED_PARTICIPANT';
    const report: TestInfractionReport = {
      id: randomUUID(),
      transactionId: input.transactionId,
      infractionType: input.infractionType,
      reportedBy,
      ...(input.reportDetails === undefined ? {} : { reportDetails: input.reportDetails }),
      status: 'OPEN',
      debitedParticipant: debited ? caller : input.counterparty,
      creditedParticipant: debited ? input.counterparty : caller,
      creationTime: at,
      lastModified: at,
    };
    this.reports.set(report.id, report);
    return report;
  }

  listInfractionReports(caller: string, filter: MedFilter): { reports: TestInfractionReport[]; hasMore: boolean } {
    const matching = [...this.reports.values()]
      .filter((r) => {
        const debited = r.debitedParticipant === caller;
        const credited = r.creditedParticipant === caller;
        const role =
          (filter.isDebited === undefined && filter.isCredited === undefined && (debited || credited)) ||
          (filter.isDebited === true && debited) ||
          (filter.isCredited === true && credited);
        return role && this.inWindow(r, filter);
      })
      .sort(byLastModified);
    const page = matching.slice(0, filter.limit).map((r) => (filter.includeDetails ? r : { ...r, reportDetails: undefined }));
    return { reports: page, hasMore: matching.length > filter.limit };
  }

  getInfractionReport(caller: string, id: string): TestInfractionReport {
    const report = this.reports.get(id);
    if (!report || (report.debitedParticipant !== caller && report.creditedParticipant !== caller)) throw notFound('Infraction report');
    return report;
  }

  /** acknowledgeInfractionReport: the side that did not report received it. */
  acknowledgeInfractionReport(caller: string, id: string): TestInfractionReport {
    const report = this.asReceiver(caller, id);
    if (report.status === 'ACKNOWLEDGED') return report;
    if (report.status !== 'OPEN') throw reportInvalid(report, 'acknowledged');
    return this.move(report, { status: 'ACKNOWLEDGED' });
  }

  closeInfractionReport(caller: string, id: string, close: ReportClose): TestInfractionReport {
    const report = this.asReceiver(caller, id);
    if (report.status === 'CLOSED' && report.analysisResult === close.result && report.analysisDetails === close.details) return report;
    if (report.status !== 'ACKNOWLEDGED') throw reportInvalid(report, 'closed');
    return this.move(report, { status: 'CLOSED', analysisResult: close.result, analysisDetails: close.details });
  }

  /** cancelInfractionReport: its creator withdraws it while it is not closed. */
  cancelInfractionReport(caller: string, id: string): TestInfractionReport {
    const report = this.getInfractionReport(caller, id);
    const creator = report.reportedBy === 'DEBITED_PARTICIPANT' ? report.debitedParticipant : report.creditedParticipant;
    if (creator !== caller) throw forbidden();
    if (report.status === 'CANCELLED') return report;
    if (report.status === 'CLOSED') throw reportInvalid(report, 'cancelled');
    return this.move(report, { status: 'CANCELLED' });
  }

  createRefund(caller: string, input: RefundInput): TestRefund {
    if (!/^\w{32}$/.test(input.transactionId))
      throw new Problem(400, 'RefundTransactionNotFound', 'Refund transaction not found', 'TransactionId is not a transaction');
    if (!/^\d+(\.\d{1,2})?$/.test(input.refundAmount) || Number(input.refundAmount) <= 0)
      throw new Problem(400, 'BadRequest', 'Bad Request', 'RefundAmount must be an amount of reais');
    const inProgress = [...this.refunds.values()].find((r) => r.transactionId === input.transactionId && r.status === 'OPEN');
    if (inProgress)
      throw new Problem(
        400,
        'RefundAlreadyBeingProcessedForTransaction',
        'Refund already being processed for transaction',
        'The transaction has a refund request in progress',
      );
    let reportId: string | undefined;
    if (input.refundReason === 'FRAUD') {
      const report = [...this.reports.values()].find((r) => r.transactionId === input.transactionId && r.status !== 'CANCELLED');
      if (!report)
        throw new Problem(
          400,
          'RefundInfractionReportNotFound',
          'Refund infraction report not found',
          'A refund for fraud needs an infraction report of the transaction',
        );
      reportId = report.id;
    }
    const at = this.now().toISOString();
    const refund: TestRefund = {
      id: randomUUID(),
      transactionId: input.transactionId,
      refundReason: input.refundReason,
      refundAmount: input.refundAmount,
      ...(input.refundDetails === undefined ? {} : { refundDetails: input.refundDetails }),
      status: 'OPEN',
      requestingParticipant: caller,
      contestedParticipant: input.contestedParticipant,
      creationTime: at,
      lastModified: at,
      ...(reportId ? { infractionReportId: reportId } : {}),
    };
    this.refunds.set(refund.id, refund);
    return refund;
  }

  listRefunds(caller: string, filter: MedFilter): { refunds: TestRefund[]; hasMore: boolean } {
    const matching = [...this.refunds.values()]
      .filter((r) => {
        const role =
          filter.role === 'REQUESTING'
            ? r.requestingParticipant === caller
            : filter.role === 'CONTESTED' && r.contestedParticipant === caller;
        return role && this.inWindow(r, filter);
      })
      .sort(byLastModified);
    const page = matching.slice(0, filter.limit).map((r) => (filter.includeDetails ? r : { ...r, refundDetails: undefined }));
    return { refunds: page, hasMore: matching.length > filter.limit };
  }

  getRefund(caller: string, id: string): TestRefund {
    const refund = this.refunds.get(id);
    if (!refund || (refund.requestingParticipant !== caller && refund.contestedParticipant !== caller)) throw notFound('Refund');
    return refund;
  }

  /** closeRefund: the contested participant's analysis; an accepted request names its devolução, a rejected one its reason. */
  closeRefund(caller: string, id: string, close: RefundClose): TestRefund {
    const refund = this.getRefund(caller, id);
    if (refund.contestedParticipant !== caller) throw forbidden();
    const same =
      refund.analysisResult === close.result &&
      refund.analysisDetails === close.details &&
      refund.refundRejectionReason === close.rejectionReason &&
      refund.refundTransactionId === close.refundTransactionId;
    if (refund.status === 'CLOSED' && same) return refund;
    if (refund.status !== 'OPEN') throw refundInvalid(refund, 'closed');
    const bad = (detail: string) => new Problem(400, 'BadRequest', 'Bad Request', detail);
    if (close.result === 'REJECTED') {
      if (!close.rejectionReason) throw bad('A rejected refund request needs RefundRejectionReason');
      if (close.refundTransactionId) throw bad('A rejected refund request has no RefundTransactionId');
    } else {
      if (!close.refundTransactionId) throw bad('An accepted refund request needs RefundTransactionId');
      if (close.rejectionReason) throw bad('An accepted refund request has no RefundRejectionReason');
    }
    return this.move(refund, {
      status: 'CLOSED',
      analysisResult: close.result,
      analysisDetails: close.details,
      refundRejectionReason: close.rejectionReason,
      refundTransactionId: close.refundTransactionId,
    });
  }

  /** cancelRefund: the requesting participant withdraws an OPEN request. */
  cancelRefund(caller: string, id: string): TestRefund {
    const refund = this.getRefund(caller, id);
    if (refund.requestingParticipant !== caller) throw forbidden();
    if (refund.status === 'CANCELLED') return refund;
    if (refund.status !== 'OPEN') throw refundInvalid(refund, 'cancelled');
    return this.move(refund, { status: 'CANCELLED' });
  }

  /** The report's receiver: the credited participant of a report the debited one opened, and the other way round. */
  private asReceiver(caller: string, id: string): TestInfractionReport {
    const report = this.getInfractionReport(caller, id);
    const receiver = report.reportedBy === 'DEBITED_PARTICIPANT' ? report.creditedParticipant : report.debitedParticipant;
    if (receiver !== caller) throw forbidden();
    return report;
  }

  private inWindow(r: { status: string; lastModified: string }, filter: MedFilter): boolean {
    return (
      (!filter.status || filter.status.includes(r.status)) &&
      (!filter.modifiedAfter || r.lastModified >= filter.modifiedAfter) &&
      (!filter.modifiedBefore || r.lastModified <= filter.modifiedBefore)
    );
  }

  private move<T extends { lastModified: string }>(item: T, patch: Partial<T>): T {
    Object.assign(item, patch, { lastModified: this.now().toISOString() });
    return item;
  }
}

/** An `ExtendedInfractionReport` element, in the order of the document's examples (ListInfractionReportsResponse.xml). */
export function infractionReportXml(r: TestInfractionReport, indent: string): string {
  return `${indent}<InfractionReport>
${lines(`${indent}    `, [
  ['TransactionId', r.transactionId],
  ['InfractionType', r.infractionType],
  ['ReportedBy', r.reportedBy],
  ['ReportDetails', r.reportDetails],
  ['Id', r.id],
  ['Status', r.status],
  ['DebitedParticipant', r.debitedParticipant],
  ['CreditedParticipant', r.creditedParticipant],
  ['CreationTime', r.creationTime],
  ['LastModified', r.lastModified],
  ['AnalysisResult', r.analysisResult],
  ['AnalysisDetails', r.analysisDetails],
])}
${indent}</InfractionReport>`;
}

/** An `ExtendedRefund` element, in the order of the document's examples (ListRefundsResponse.xml). */
export function refundXml(r: TestRefund, indent: string): string {
  return `${indent}<Refund>
${lines(`${indent}    `, [
  ['TransactionId', r.transactionId],
  ['RefundReason', r.refundReason],
  ['RefundAmount', r.refundAmount],
  ['RefundDetails', r.refundDetails],
  ['Id', r.id],
  ['Status', r.status],
  ['ContestedParticipant', r.contestedParticipant],
  ['RequestingParticipant', r.requestingParticipant],
  ['CreationTime', r.creationTime],
  ['LastModified', r.lastModified],
  ['InfractionReportId', r.infractionReportId],
  ['AnalysisResult', r.analysisResult],
  ['AnalysisDetails', r.analysisDetails],
  ['RefundRejectionReason', r.refundRejectionReason],
  ['RefundTransactionId', r.refundTransactionId],
])}
${indent}</Refund>`;
}

/** A payment's end-to-end id as another participant's SPI writes it (`E` + ISPB + date + 11 characters), for specs. */
export function endToEndIdOf(ispb: string, at = new Date()): string {
  const stamp = at.toISOString().replace(/[-:T]/g, '').slice(0, 12);
  return `E${ispb}${stamp}${randomUUID().replace(/-/g, '').slice(0, 11)}`;
}
