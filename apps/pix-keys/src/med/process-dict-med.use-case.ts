import { Inject, Injectable, Logger } from '@nestjs/common';
import { MedCaseCancelledEvent, MedCaseKind, MedCaseReceivedEvent, Topics } from '@partner/contracts';
import { outboxMessage, UnitOfWork } from '@partner/db';
import { inParallel } from '@partner/platform';
import { retryDelayMs } from '@partner/runtime';
import { errorText } from '@partner/tracing';
import { validateContract } from '@partner/validation';
import { PixKeysConfig } from '../config/pix-keys.config';
import {
  DICT_DIRECTORY,
  DictAnswer,
  DictDirectory,
  DictInfractionReport,
  DictRefund,
  DictRefundClose,
  DictUnavailable,
} from '../dict/dict-directory';
import { problemText } from '../dict/dict-refusals';
import { MedCase, MedCaseRepository } from './med-case.repository';
import { dictBatchLease, dictRetryPolicy } from '../dict/dict-queue';

/** DICT's listings may lag its writes by up to 5 s (their descriptions): each listing starts that much before the last. */
const LISTING_OVERLAP_MS = 10_000;
/** Pages of a listing in one turn, and a page's size (the document allows 200; cases are few, answers kept small). */
const PAGES_PER_TURN = 5;
const PAGE = 100;

/** A case of ours as a listing's page carries it: what is recorded, and the event that tells the inflows service. */
interface ListedCase {
  id: string;
  kind: MedCaseKind;
  endToEndId: string;
  lastModified: Date;
  /** DICT has our acknowledgement already (a report listed ACKNOWLEDGED): none is owed. A refund request takes none. */
  acknowledged: boolean;
  /** DICT has it CANCELLED (its opener withdrew it): a case we hold is ended, one we never held is not recorded. */
  cancelled: boolean;
  event: MedCaseReceivedEvent;
}

/** One page of a listing: our cases in it, the newest LastModified of all it listed, and whether more follow. */
interface ListedPage {
  cases: ListedCase[];
  newest: Date | null;
  hasMore: boolean;
}

/**
 * MED cases DICT holds against payments this operator received (docs/operations/pix-and-dict.md, "MED"):
 *
 * 1. On its turns (one instance at a time, every DICT_MED_LIST_MS, a turn per kind), lists the infraction reports
 *    where this operator is the credited participant (OPEN, and ACKNOWLEDGED for a case whose row was lost) and the
 *    refund requests where it is the contested one (OPEN), modified since the last listing; records each new one with
 *    its MedCaseReceivedEvent in one transaction, for the inflows service (which blocks the funds and decides). The
 *    same listings take the CANCELLED ones: a case we hold that its opener cancelled is ended `cancelled` with its
 *    MedCaseCancelledEvent in one transaction (nothing owed DICT any more; inflows releases what is still blocked).
 * 2. Sends DICT what the cases owe, on the cases' WorkQueue (libs/db) as the claims' (DICT backoff, Retry-After): a
 *    report's acknowledgement, then the close the inflows service's decision asked for (RecordMedCaseDecisionUseCase).
 *    A close DICT refuses ends the case `failed`, logged for an operator: the decision cannot be sent as it is. An
 *    acknowledgement or close refused first reads the case: if DICT has it CANCELLED, it is ended as in 1.
 */
@Injectable()
export class ProcessDictMedUseCase {
  private readonly logger = new Logger('DictMed');

  constructor(
    private readonly config: PixKeysConfig,
    private readonly unitOfWork: UnitOfWork,
    private readonly cases: MedCaseRepository,
    @Inject(DICT_DIRECTORY) private readonly dict: DictDirectory,
  ) {}

  async execute(now = new Date()): Promise<void> {
    await this.list('infraction_report', now);
    await this.list('refund_request', now);
    // A refused close makes a second call (was the case cancelled?); the lease counts from the real clock (the
    // listings above may have taken minutes).
    const due = await this.cases.claimWork(now, dictBatchLease(this.config, 2, now), this.config.DICT_BATCH);
    await inParallel(due, this.config.DICT_CONCURRENCY, (c) => this.send(c));
  }

  /** One listing turn of `kind`, if it is this instance's. */
  private async list(kind: MedCaseKind, now: Date): Promise<void> {
    const turn = await this.cases.takePoll(kind, now, new Date(now.getTime() + this.config.DICT_MED_LIST_MS));
    if (!turn) return;
    let reached = turn.modifiedAfter;
    let after = reached ? new Date(reached.getTime() - LISTING_OVERLAP_MS) : undefined;
    for (let page = 0; page < PAGES_PER_TURN; page++) {
      const answer = kind === 'infraction_report' ? await this.reportsPage(after, now) : await this.refundsPage(after, now);
      if (answer.outcome !== 'done') {
        const wait = answer.outcome === 'unavailable' ? (answer.retryAfterMs ?? 0) : 0;
        this.logger.warn(`listing ${kind}s not answered: ${answer.outcome === 'refused' ? answer.problem.type : answer.reason}`);
        await this.cases.advancePoll(kind, reached, new Date(now.getTime() + Math.max(this.config.DICT_MED_LIST_MS, wait)));
        return;
      }
      const known = await this.cases.known(answer.value.cases.map((c) => c.id));
      for (const listed of answer.value.cases) {
        if (listed.cancelled) {
          if (known.has(listed.id)) await this.cancel(listed.id, listed.kind, listed.endToEndId, listed.lastModified, now);
        } else if (!known.has(listed.id)) await this.record(listed, now);
      }
      const { newest } = answer.value;
      if (newest && (!reached || newest > reached)) reached = newest;
      if (!answer.value.hasMore || !newest) break;
      after = newest;
    }
    await this.cases.advancePoll(kind, reached, new Date(now.getTime() + this.config.DICT_MED_LIST_MS));
  }

  private async reportsPage(after: Date | undefined, now: Date): Promise<DictAnswer<ListedPage>> {
    const answer = await this.dict.listInfractionReports({
      isCredited: true,
      status: ['OPEN', 'ACKNOWLEDGED', 'CANCELLED'],
      modifiedAfter: after,
      limit: PAGE,
    });
    if (answer.outcome !== 'done') return answer;
    const { reports, hasMore } = answer.value;
    // Ours to answer: the debited participant reported a payment we received (a report we made is the other side's).
    const ours = reports.filter((r) => r.creditedParticipant === this.config.DICT_ISPB && r.reportedBy === 'DEBITED_PARTICIPANT');
    return { outcome: 'done', value: { cases: ours.map((r) => this.reportCase(r, now)), newest: newestOf(reports), hasMore } };
  }

  private async refundsPage(after: Date | undefined, now: Date): Promise<DictAnswer<ListedPage>> {
    const answer = await this.dict.listRefunds({ role: 'CONTESTED', status: ['OPEN', 'CANCELLED'], modifiedAfter: after, limit: PAGE });
    if (answer.outcome !== 'done') return answer;
    const { refunds, hasMore } = answer.value;
    const ours = refunds.filter((r) => r.contestedParticipant === this.config.DICT_ISPB);
    return { outcome: 'done', value: { cases: ours.map((r) => this.refundCase(r, now)), newest: newestOf(refunds), hasMore } };
  }

  private reportCase(r: DictInfractionReport, now: Date): ListedCase {
    return {
      id: r.id,
      kind: 'infraction_report',
      endToEndId: r.transactionId,
      lastModified: r.lastModified,
      acknowledged: r.status === 'ACKNOWLEDGED',
      cancelled: r.status === 'CANCELLED',
      event: {
        case_id: r.id,
        kind: 'infraction_report',
        end_to_end_id: r.transactionId,
        reason: r.infractionType,
        amount_cents: null,
        details: r.reportDetails,
        infraction_report_id: null,
        opened_by: r.debitedParticipant,
        opened_at: r.creationTime.toISOString(),
        received_at: now.toISOString(),
      },
    };
  }

  private refundCase(r: DictRefund, now: Date): ListedCase {
    return {
      id: r.id,
      kind: 'refund_request',
      endToEndId: r.transactionId,
      lastModified: r.lastModified,
      acknowledged: false,
      cancelled: r.status === 'CANCELLED',
      event: {
        case_id: r.id,
        kind: 'refund_request',
        end_to_end_id: r.transactionId,
        reason: r.refundReason,
        amount_cents: r.amountCents,
        details: r.refundDetails,
        infraction_report_id: r.infractionReportId,
        opened_by: r.requestingParticipant,
        opened_at: r.creationTime.toISOString(),
        received_at: now.toISOString(),
      },
    };
  }

  /** A new case: its row and its event in one transaction, once (another instance may record it first: then nothing). */
  private async record(listed: ListedCase, now: Date): Promise<void> {
    // The event is the inflows service's input: one its contract refuses (a TransactionId that is no end-to-end id) would
    // be parked there unread, so it is kept here, unrecorded, for an operator.
    const checked = validateContract(MedCaseReceivedEvent, listed.event);
    if (!checked.ok) {
      this.logger.error(`DICT ${listed.kind} ${listed.id} cannot be told to the inflows service: ${checked.error.message}`);
      return;
    }
    const recorded = await this.unitOfWork.run(async (tx) => {
      const row = await this.cases.recordNew(
        tx,
        {
          id: listed.id,
          kind: listed.kind,
          endToEndId: listed.endToEndId,
          dictLastModified: listed.lastModified,
          acknowledgedAt: listed.acknowledged ? now : null,
        },
        now,
      );
      if (row) tx.emit(outboxMessage(Topics.PixKeysMedCaseReceived, listed.event));
      return row;
    });
    if (recorded) this.logger.log(`DICT ${listed.kind} ${listed.id} against payment ${listed.endToEndId} recorded`);
  }

  /**
   * A case of ours DICT has CANCELLED: ended `cancelled` with its MedCaseCancelledEvent in one transaction, once (a
   * case cancelled already, by another instance or an earlier turn, changes nothing).
   */
  private async cancel(id: string, kind: MedCaseKind, endToEndId: string, lastModified: Date, now: Date): Promise<void> {
    const event: MedCaseCancelledEvent = { case_id: id, kind, end_to_end_id: endToEndId, cancelled_at: lastModified.toISOString() };
    const cancelled = await this.unitOfWork.run(async (tx) => {
      const row = await this.cases.cancelled(tx, id, lastModified, now);
      if (row) tx.emit(outboxMessage(Topics.PixKeysMedCaseCancelled, event));
      return row;
    });
    if (cancelled) this.logger.log(`DICT ${kind} ${id} against payment ${endToEndId} cancelled by its opener`);
  }

  /**
   * A call refused: is the case CANCELLED in DICT? Then it is ended as such (true). Any other state, or no answer,
   * leaves the refusal to its usual handling (false).
   */
  private async cancelledInDict(c: MedCase): Promise<boolean> {
    const answer = c.kind === 'infraction_report' ? await this.dict.getInfractionReport(c.id) : await this.dict.getRefund(c.id);
    if (answer.outcome !== 'done' || answer.value.status !== 'CANCELLED') return false;
    await this.cancel(c.id, c.kind, c.endToEndId, answer.value.lastModified, new Date());
    return true;
  }

  /** The call the case owes DICT: a report's acknowledgement first, then its close. */
  private async send(c: MedCase): Promise<void> {
    try {
      if (c.kind === 'infraction_report' && !c.acknowledgedAt) {
        const answer = await this.dict.acknowledgeInfractionReport(c.id);
        // A close asked for meanwhile is due at once after it (the next run), on fresh attempts.
        if (answer.outcome === 'done') await this.cases.acknowledged(c.id, new Date());
        else await this.notDone(c, 'acknowledge', answer);
        return;
      }
      if (c.status !== 'closing') return;
      const answer = c.kind === 'infraction_report' ? await this.closeReport(c) : await this.dict.closeRefund(c.id, refundCloseOf(c));
      if (answer.outcome === 'done') {
        await this.cases.closed(c.id, new Date());
        this.logger.log(`DICT ${c.kind} ${c.id} closed: ${c.dictResult}`);
      } else await this.notDone(c, 'close', answer);
    } catch (error) {
      // A failure of ours: the case stays leased and is taken again after its lease.
      this.logger.error(`${c.kind} ${c.id}: call to DICT interrupted: ${errorText(error)}`);
    }
  }

  private closeReport(c: MedCase) {
    if (c.dictResult !== 'AGREED' && c.dictResult !== 'DISAGREED') throw new Error(`a report closed with ${c.dictResult}`);
    return this.dict.closeInfractionReport(c.id, { result: c.dictResult, details: c.analysisDetails });
  }

  /**
   * Not done: unavailable is retried with backoff (at least DICT's Retry-After). A refused call on a case DICT has
   * CANCELLED ends it `cancelled`; otherwise a refused acknowledgement is retried at the longest backoff, and a refused
   * close ends the case `failed`.
   */
  private async notDone(c: MedCase, call: 'acknowledge' | 'close', answer: Exclude<DictAnswer<unknown>, { outcome: 'done' }>) {
    if (answer.outcome === 'unavailable') return this.retry(c, answer.reason, answer);
    const what = problemText(answer.problem);
    // The opener may have cancelled the case (DICT refuses then InfractionReportOperationInvalid/RefundOperationInvalid).
    if (await this.cancelledInDict(c)) return;
    if (call === 'acknowledge') {
      this.logger.error(`${c.kind} ${c.id}: acknowledge refused, retried later: ${what}`);
      return this.cases.retryLater(c, new Date(Date.now() + this.config.DICT_RETRY_MAX_MS), what);
    }
    this.logger.error(`${c.kind} ${c.id}: close ${c.dictResult} refused, the case is failed and needs an operator: ${what}`);
    await this.cases.failed(c, what, new Date());
  }

  private async retry(c: MedCase, error: string, unavailable: DictUnavailable): Promise<void> {
    const wait = retryDelayMs(c.attempts, dictRetryPolicy(this.config), unavailable.retryAfterMs);
    await this.cases.retryLater(c, new Date(Date.now() + wait), error);
  }
}

const newestOf = (items: Array<{ lastModified: Date }>): Date | null =>
  items.reduce<Date | null>((newest, i) => (!newest || i.lastModified > newest ? i.lastModified : newest), null);

/** closeRefund's fields from the decision kept (the row's CHECK makes an accepted one carry its devolução, a rejected one its reason). */
export function refundCloseOf(c: MedCase): DictRefundClose {
  if (c.dictResult === 'REJECTED' && c.rejectionReason)
    return { result: 'REJECTED', details: c.analysisDetails, rejectionReason: c.rejectionReason };
  if ((c.dictResult === 'TOTALLY_ACCEPTED' || c.dictResult === 'PARTIALLY_ACCEPTED') && c.refundTransactionId)
    return { result: c.dictResult, details: c.analysisDetails, refundTransactionId: c.refundTransactionId };
  throw new Error(`refund request ${c.id}: no close of ${c.dictResult} with what is kept`);
}
