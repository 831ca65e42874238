import { Injectable, Logger } from '@nestjs/common';
import { PixReceivedEvent } from '@partner/contracts';
import { OutboxRelay, OutboxRepository } from '@partner/kafka';
import { PrismaService } from '../prisma/prisma.service';
import { pixInStateChanged } from './pix-in-event';
import { PixInflowRecord, PixInflowRepository } from './pix-inflow.repository';

/**
 * Records a payment the network announced, once per end-to-end id (Kafka may deliver an announcement
 * more than once): the inflow in `processing` and its `processing` event are one transaction, and a
 * repeated announcement changes nothing.
 */
@Injectable()
export class RecordPixInflowUseCase {
  private readonly logger = new Logger(RecordPixInflowUseCase.name);

  constructor(
    private readonly prisma: PrismaService,
    private readonly inflows: PixInflowRepository,
    private readonly outbox: OutboxRepository,
    private readonly relay: OutboxRelay,
  ) {}

  /** The inflow when it is new; null for a repeated announcement. */
  async execute(payment: PixReceivedEvent): Promise<PixInflowRecord | null> {
    const recorded = await this.prisma.$transaction(async (tx) => {
      const inflow = await this.inflows.recordIfAbsent(tx, payment.partner_id, payment);
      if (inflow) await this.outbox.add(tx, pixInStateChanged(inflow));
      return inflow;
    });
    if (recorded) {
      this.relay.wake();
    } else if (await this.inflows.findByEndToEndId(payment.partner_id, payment.end_to_end_id)) {
      this.logger.debug(`Pix ${payment.end_to_end_id} already recorded; repeated announcement ignored`);
    } else {
      // End-to-end ids are unique network-wide: the same id for another partner is the network's error, not a new Pix.
      this.logger.error(`Pix ${payment.end_to_end_id} is already recorded for another partner; announcement ignored`);
    }
    return recorded;
  }
}
