import { Injectable } from '@nestjs/common';
import { UnitOfWork } from '@partner/kafka';
import { InflowsConfig } from '../config/inflows.config';
import { pixInStateChanged } from './pix-in-event';
import { PixInflowRepository, SETTLING_STATUSES } from './pix-inflow.repository';

/** Inflows moved per step and transaction: one statement moves them all, and their events go out together. */
const BATCH = 500;

/**
 * The simulated settlement of incoming Pix: `processing` → `approved` (or `denied`), `approved` →
 * `success`, completed at the network (or `failed`), then `success` → `credited`, each after
 * PIX_IN_STEP_DELAY_MS, as the sandbox asked (the payment's outcome). Each batch of moves is one transaction with their pix_in events; rows are claimed with SKIP
 * LOCKED and moved only from the status they were due in, so any number of instances may run and a
 * move is never made twice.
 */
@Injectable()
export class AdvancePixInflowsUseCase {
  constructor(
    private readonly config: InflowsConfig,
    private readonly unitOfWork: UnitOfWork,
    private readonly inflows: PixInflowRepository,
  ) {}

  /** Makes every move that is due at `now`; returns how many inflows moved. */
  async execute(now = new Date()): Promise<number> {
    const dueBefore = new Date(now.getTime() - this.config.PIX_IN_STEP_DELAY_MS);
    // Most ticks find nothing to do: one read then, rather than an empty transaction.
    if (!(await this.inflows.anyDue(dueBefore))) return 0;
    let count = 0;
    for (;;) {
      const { moved, someStepFull } = await this.unitOfWork.run(async (tx) => {
        const batch = await this.inflows.advanceDue(tx, dueBefore, BATCH, new Date());
        // An inflow moves at most one step per batch, so its events stay in the order of its moves.
        for (const inflow of batch.moved) tx.emit(pixInStateChanged(inflow));
        return batch;
      });
      count += moved.length;
      // Again when a step was full (more may wait), or when an inflow just moved is due for its next
      // step already (a zero delay, or a `now` ahead of the clock), so it takes every step in one run as it is due.
      const dueAgain = moved.some((inflow) => SETTLING_STATUSES.includes(inflow.status) && inflow.updatedAt <= dueBefore);
      if (!someStepFull && !dueAgain) return count;
    }
  }
}
