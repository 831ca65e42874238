import { Inject, Injectable, Logger } from '@nestjs/common';
import { MedCaseChangedEvent } from '@partner/contracts';
import { MedClose, MedCaseRepository } from './med-case.repository';

/** What became of a MedCaseChanged: its close recorded, ignored (no decision yet, a repeat, not ours), or unusable. */
export type DecisionOutcome = { outcome: 'recorded' | 'ignored' } | { outcome: 'invalid'; reason: string };

/**
 * The inflows service's decision on a case (MedCaseChangedEvent with `dict_result`), recorded as the close owed DICT,
 * which ProcessDictMedUseCase sends. Idempotent: a case is decided once, so a repeat (redelivery, a later status of
 * the same case) changes nothing; events without a decision only report and are ignored here.
 */
@Injectable()
export class RecordMedCaseDecisionUseCase {
  private readonly logger = new Logger('DictMed');

  constructor(@Inject(MedCaseRepository) private readonly cases: Pick<MedCaseRepository, 'requestClose' | 'find'>) {}

  async execute(event: MedCaseChangedEvent, now = new Date()): Promise<DecisionOutcome> {
    if (event.dict_result === null) return { outcome: 'ignored' };
    const close = closeOf(event);
    if (typeof close === 'string') return { outcome: 'invalid', reason: close };
    if (await this.cases.requestClose(event.case_id, event.kind, close, now)) return { outcome: 'recorded' };
    const known = await this.cases.find(event.case_id);
    if (!known) this.logger.warn(`MED case ${event.case_id} decided ${event.dict_result}: not a case DICT gave this service`);
    else if (known.kind !== event.kind)
      return { outcome: 'invalid', reason: `case ${event.case_id} is a ${known.kind}, not a ${event.kind}` };
    else if (known.dictResult !== event.dict_result)
      this.logger.warn(`MED case ${event.case_id} decided ${event.dict_result}, but it was decided ${known.dictResult} already`);
    return { outcome: 'ignored' };
  }
}

/** The close DICT takes for the decision, or why there is none: each kind's results, and what closeRefund requires of each. */
function closeOf(e: MedCaseChangedEvent): MedClose | string {
  const result = e.dict_result;
  if (result === null) return 'no decision';
  const close: MedClose = {
    result,
    analysisDetails: e.analysis_details,
    rejectionReason: result === 'REJECTED' ? e.rejection_reason : null,
    refundTransactionId: result === 'TOTALLY_ACCEPTED' || result === 'PARTIALLY_ACCEPTED' ? e.refund_transaction_id : null,
  };
  if (e.kind === 'infraction_report') return result === 'AGREED' || result === 'DISAGREED' ? close : `a report is not closed ${result}`;
  if (result === 'AGREED' || result === 'DISAGREED') return `a refund request is not closed ${result}`;
  if (result === 'REJECTED' && !close.rejectionReason) return 'a rejected refund request needs its rejection_reason';
  if (result !== 'REJECTED' && !close.refundTransactionId) return `a refund request ${result} needs its refund_transaction_id`;
  return close;
}
