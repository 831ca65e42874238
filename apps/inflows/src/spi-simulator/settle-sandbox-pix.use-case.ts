import { Inject, Injectable, Logger } from '@nestjs/common';
import { InflowsConfig } from '../config/inflows.config';
import { IngestPixInflowUseCase } from '../pix-inflows/ingest-pix-inflow.use-case';
import { nextStatus, notificationOf } from './sandbox-notification';
import { DuePayment, SpiPaymentRepository } from './spi-payment.repository';

/** Payments read per round; each is then one notification, one transaction. */
const BATCH = 100;

/**
 * The simulated settlement of sandbox Pix: once an inflow has waited PIX_IN_STEP_DELAY_MS in `processing`,
 * `approved` or `success`, the simulated network notifies its next status as the sandbox asked
 * (`simulate_outcome`), through the Pix provider's ingestion (IngestPixInflowUseCase): the one path that
 * moves an inflow and writes its pix_in event. Any number of instances may run: the ingestion locks the
 * inflow, and a status notified twice (or late) changes nothing.
 */
@Injectable()
export class SettleSandboxPixUseCase {
  private readonly logger = new Logger(SettleSandboxPixUseCase.name);

  constructor(
    private readonly config: InflowsConfig,
    @Inject(SpiPaymentRepository) private readonly payments: Pick<SpiPaymentRepository, 'dueForSettlement'>,
    @Inject(IngestPixInflowUseCase) private readonly ingest: Pick<IngestPixInflowUseCase, 'execute'>,
  ) {}

  /** Notifies every step that is due at `now`; returns how many inflows reached their next status. */
  async execute(now = new Date()): Promise<number> {
    const dueBefore = new Date(now.getTime() - this.config.PIX_IN_STEP_DELAY_MS);
    let count = 0;
    // Again while a round moved something: more may wait beyond the batch, or an inflow just moved is due
    // for its next step already (a zero delay, or a `now` ahead of the clock). A round that moved nothing ends it.
    for (;;) {
      let moved = 0;
      for (const due of await this.payments.dueForSettlement(dueBefore, BATCH)) if (await this.notifyNext(due)) moved++;
      count += moved;
      if (moved === 0) return count;
    }
  }

  /** Whether the inflow is at its next status after the notification (by this one, or by another instance's). */
  private async notifyNext({ payment, status }: DuePayment): Promise<boolean> {
    const next = nextStatus(status, payment.outcome);
    if (next === null) return false;
    const reply = await this.ingest.execute(notificationOf(payment, this.config.OPERATOR_ISPB, next));
    if (reply.ok) return reply.data.status === next;
    // Another instance moved it past `next` meanwhile (invalid_transition): nothing to do. Anything else is unexpected.
    if (reply.error.code === 'invalid_transition') this.logger.debug(`Pix ${payment.end_to_end_id}: ${reply.error.message}`);
    else this.logger.warn(`Pix ${payment.end_to_end_id} not moved to ${next}: ${reply.error.code}: ${reply.error.message}`);
    return false;
  }
}
