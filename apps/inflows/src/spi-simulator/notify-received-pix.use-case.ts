import { Inject, Injectable, Logger } from '@nestjs/common';
import { IngestPixInflowResult, PixReceivedEvent } from '@partner/contracts';
import { InflowsConfig } from '../config/inflows.config';
import { IngestPixInflowUseCase } from '../pix-inflows/ingest-pix-inflow.use-case';
import { notificationOf } from './sandbox-notification';
import { SpiPaymentRepository } from './spi-payment.repository';

/**
 * A payment the simulated network announced (sandbox), notified as the Pix provider notifies one: at
 * `processing`, through the provider's ingestion (IngestPixInflowUseCase), naming the account the network
 * paid (its log, spi_payments, has it with the payment), so the sandbox records its inflows exactly as
 * production does. Kafka may deliver an announcement more than once: a repeat is a repeated notification,
 * which records nothing and emits nothing.
 */
@Injectable()
export class NotifyReceivedPixUseCase {
  private readonly logger = new Logger(NotifyReceivedPixUseCase.name);

  constructor(
    @Inject(InflowsConfig) private readonly config: Pick<InflowsConfig, 'OPERATOR_ISPB'>,
    @Inject(SpiPaymentRepository) private readonly payments: Pick<SpiPaymentRepository, 'findSent'>,
    @Inject(IngestPixInflowUseCase) private readonly ingest: Pick<IngestPixInflowUseCase, 'execute'>,
  ) {}

  /** The inflow's status after the notification; null when the ingestion refused it (logged: the network's error, not the partner's). */
  async execute(announced: PixReceivedEvent): Promise<IngestPixInflowResult | null> {
    const payment = await this.payments.findSent(announced.end_to_end_id);
    if (!payment || payment.partner_id !== announced.partner_id || payment.document !== announced.document) {
      this.logger.error(`Pix ${announced.end_to_end_id} announced by the simulated network is not in its log as announced; not notified`);
      return null;
    }
    const reply = await this.ingest.execute(notificationOf(payment, this.config.OPERATOR_ISPB, 'processing'));
    if (!reply.ok) {
      // End-to-end ids are unique network-wide: one recorded with other details is the network's error.
      this.logger.error(
        `Pix ${announced.end_to_end_id} announced by the simulated network not recorded: ${reply.error.code}: ${reply.error.message}`,
      );
      return null;
    }
    if (!reply.data.created) this.logger.debug(`Pix ${announced.end_to_end_id} already recorded; repeated announcement ignored`);
    return reply.data;
  }
}
