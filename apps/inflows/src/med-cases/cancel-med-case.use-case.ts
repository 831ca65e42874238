import { Injectable, Logger } from '@nestjs/common';
import { MedCaseCancelledEvent } from '@partner/contracts';
import { UnitOfWork } from '@partner/db';
import { AccountRepository } from '../accounts/account.repository';
import { PixInflowRepository } from '../pix-inflows/pix-inflow.repository';
import { medCaseChanged } from './med-case-event';
import { MedCaseRecord, MedCaseRepository } from './med-case.repository';
import { releaseBlock, unblockInflow } from './med-case-release';

/**
 * pix-keys.event.med-case-cancelled.v1: the participant that opened a MED case cancelled it in DICT. A case not yet
 * decided (`open`, or an `agreed` report whose block is still held) ends `cancelled` in one transaction: its block
 * released exactly (med_release), the inflow back to its status before the block once no case holds it (with its
 * pix_in event), and its med-case-changed event (`cancelled`, no dict_result: DICT is owed nothing). A case decided
 * otherwise (returning, returned, rejected, disagreed, an agreed report whose block a refund request took over) is
 * left as it is and logged: a devolução under way goes on. Idempotent (a redelivery finds it cancelled). Under the
 * end-to-end id's advisory lock, then the case's row lock, as the other MED use cases.
 */
@Injectable()
export class CancelMedCaseUseCase {
  private readonly logger = new Logger('MedCases');

  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly cases: MedCaseRepository,
    private readonly inflows: PixInflowRepository,
    private readonly accounts: AccountRepository,
  ) {}

  /** `event` was validated at the consumer boundary (@HandleEvent). */
  execute(event: MedCaseCancelledEvent): Promise<void> {
    return this.unitOfWork.run(async (tx) => {
      await this.inflows.lockEndToEndId(tx, event.end_to_end_id);
      const found = await this.cases.lock(tx, event.case_id);
      if (!found) {
        this.logger.warn(`MED ${event.kind} ${event.case_id} cancelled in DICT: not a case this service holds, nothing to do`);
        return;
      }
      if (found.status === 'cancelled') return;
      if (!cancellable(found)) {
        this.logger.warn(
          `MED ${found.kind} ${found.caseId} cancelled in DICT, but it is ${found.status} already (blocked ${found.blockedCents}): left as it is`,
        );
        return;
      }
      const now = new Date();
      await releaseBlock(tx, this.accounts, found, found.blockedCents, now);
      const cancelled = await this.cases.update(tx, found, { status: 'cancelled', blockedCents: 0n }, now);
      await unblockInflow(tx, this.inflows, this.cases, cancelled, now);
      tx.emit(medCaseChanged(cancelled));
      this.logger.log(
        `MED ${found.kind} ${found.caseId} on ${found.endToEndId} cancelled by its opener: ${found.blockedCents} cents released`,
      );
    });
  }
}

/** Not decided yet: open, or an agreed report still holding its block (no refund request took it over). */
const cancellable = (c: MedCaseRecord) => c.status === 'open' || (c.status === 'agreed' && c.blockedCents > 0n);
