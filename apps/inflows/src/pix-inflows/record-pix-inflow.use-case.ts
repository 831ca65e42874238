import { Injectable, Logger } from '@nestjs/common';
import { PixReceivedEvent } from '@partner/contracts';
import { UnitOfWork } from '@partner/kafka';
import { pixInStateChanged } from './pix-in-event';
import { PixInflowRecord, PixInflowRepository } from './pix-inflow.repository';

/**
 * Records a payment the network announced, once per end-to-end id (Kafka may deliver an announcement
 * more than once): the inflow in `processing` and its `processing` event are one unit of work (one
 * INSERT of the inflow, then the event's outbox row before COMMIT), and a repeated announcement inserts
 * nothing and emits nothing.
 */
@Injectable()
export class RecordPixInflowUseCase {
  private readonly logger = new Logger(RecordPixInflowUseCase.name);

  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly inflows: PixInflowRepository,
  ) {}

  /** The inflow when it is new; null for a repeated announcement. */
  async execute(payment: PixReceivedEvent): Promise<PixInflowRecord | null> {
    const recorded = await this.unitOfWork.run(async (tx) => {
      const inflow = await this.inflows.recordIfAbsent(tx, payment.partner_id, payment, new Date());
      if (inflow) tx.emit(pixInStateChanged(inflow));
      return inflow;
    });
    if (recorded) return recorded;
    // Only a repeat gets here, off the hot path: one more read tells a redelivery from the network's error.
    if (await this.inflows.findByEndToEndId(payment.partner_id, payment.end_to_end_id)) {
      this.logger.debug(`Pix ${payment.end_to_end_id} already recorded; repeated announcement ignored`);
    } else {
      // End-to-end ids are unique network-wide: the same id for another partner is the network's error, not a new Pix.
      this.logger.error(`Pix ${payment.end_to_end_id} is already recorded for another partner; announcement ignored`);
    }
    return null;
  }
}
