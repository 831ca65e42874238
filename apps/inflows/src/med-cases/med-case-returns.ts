import { Injectable, Logger } from '@nestjs/common';
import { Transaction } from '@partner/db';
import { AccountRepository } from '../accounts/account.repository';
import { pixInStateChanged } from '../pix-inflows/pix-in-event';
import { PixInflowRecord, PixInflowRepository } from '../pix-inflows/pix-inflow.repository';
import type { PixInRefundRecord } from '../pix-in-refunds/pix-in-refund.repository';
import { medCaseChanged } from './med-case-event';
import { MedCaseRepository } from './med-case.repository';
import { acceptedResult, statusAfterReturn } from './med-case-rules';

/**
 * What a MED devolução's outcome does, in the refunds round's transaction (SendPixInRefundsUseCase, which passes
 * the inflow it locked), instead of a partner refund's: settled, the inflow counts it returned (leaving `blocked`
 * for the status statusAfterReturn decides) and the case is `returned` with
 * DICT's result and the devolução's end-to-end id (RtrId); failed, its cents go back to the BLOCKED balance
 * (med_return_reversal), not the available one, and the case back to `open` for the operator to decide again.
 */
@Injectable()
export class MedCaseReturns {
  private readonly logger = new Logger('MedCases');

  constructor(
    private readonly cases: MedCaseRepository,
    private readonly inflows: PixInflowRepository,
    private readonly accounts: AccountRepository,
  ) {}

  async apply(tx: Transaction, refund: PixInRefundRecord, inflow: PixInflowRecord, now: Date): Promise<void> {
    const found = await this.cases.lockByRefund(tx, refund.id);
    if (!found) throw new Error(`refund ${refund.id} names MED case ${refund.medCaseId}, which has no such devolução`);
    if (refund.status === 'success') {
      const status = statusAfterReturn(inflow, refund.amountCents, 'med_case');
      tx.emit(pixInStateChanged(await this.inflows.countReturn(tx, inflow, refund.amountCents, status, now)));
      const returnedCents = found.returnedCents + refund.amountCents;
      const returned = await this.cases.update(
        tx,
        found,
        {
          status: 'returned',
          returnedCents,
          dictResult: acceptedResult(returnedCents, found.askedCents),
          refundTransactionId: refund.rtrId,
        },
        now,
      );
      tx.emit(medCaseChanged(returned));
      this.logger.log(`MED ${found.caseId}: ${refund.amountCents} cents returned (${returned.dictResult}, ${refund.rtrId})`);
    } else if (refund.status === 'failed') {
      await this.inflows.releaseRefund(tx, refund.partnerId, inflow.id, refund.amountCents);
      await this.accounts.medReturnReversal(tx, refund.partnerId, refund.document, {
        endToEndId: refund.endToEndId,
        caseId: found.caseId,
        amountCents: refund.amountCents,
        refundId: refund.id,
        at: now,
      });
      const reopened = await this.cases.update(
        tx,
        found,
        { status: 'open', blockedCents: refund.amountCents, refundId: null, dictResult: null, analysisDetails: null, decidedBy: null },
        now,
      );
      tx.emit(medCaseChanged(reopened));
      this.logger.warn(
        `MED ${found.caseId}: its devolução failed (${refund.failureReason}): ${refund.amountCents} cents blocked again, open`,
      );
    }
  }
}
