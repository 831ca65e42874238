import { Inject, Injectable, Logger } from '@nestjs/common';
import { IngestPixInflowResult, PixReceivedEvent } from '@partner/contracts';
import { IngestPixInflowUseCase } from '../pix-inflows/ingest-pix-inflow.use-case';
import { notificationOf } from './sandbox-notification';

/**
 * A payment the simulated network announced (sandbox), notified as the Pix provider notifies one: at
 * `processing`, through the provider's ingestion (IngestPixInflowUseCase), so the sandbox records its
 * inflows exactly as production does. Kafka may deliver an announcement more than once: a repeat is a
 * repeated notification, which records nothing and emits nothing.
 */
@Injectable()
export class NotifyReceivedPixUseCase {
  private readonly logger = new Logger(NotifyReceivedPixUseCase.name);

  constructor(@Inject(IngestPixInflowUseCase) private readonly ingest: Pick<IngestPixInflowUseCase, 'execute'>) {}

  /** The inflow's status after the notification; null when the ingestion refused it (logged: the network's error, not the partner's). */
  async execute(payment: PixReceivedEvent): Promise<IngestPixInflowResult | null> {
    const reply = await this.ingest.execute(notificationOf(payment, 'processing'));
    if (!reply.ok) {
      // End-to-end ids are unique network-wide: one recorded with other details (or for another partner) is the network's error.
      this.logger.error(
        `Pix ${payment.end_to_end_id} announced by the simulated network not recorded: ${reply.error.code}: ${reply.error.message}`,
      );
      return null;
    }
    if (!reply.data.created) this.logger.debug(`Pix ${payment.end_to_end_id} already recorded; repeated announcement ignored`);
    return reply.data;
  }
}
