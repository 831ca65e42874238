import { Injectable, Logger } from '@nestjs/common';
import { PartnerStatusChangedEvent } from '@partner/contracts';
import { PartnerStatusRepository } from './partner-status.repository';

/** Keeps the partners' statuses from the gateway's events: a disabled partner's users receive no Pix. */
@Injectable()
export class ApplyPartnerStatusUseCase {
  private readonly logger = new Logger('PartnerStatuses');

  constructor(private readonly statuses: PartnerStatusRepository) {}

  /** `event` was validated at the consumer boundary (@HandleEvent). */
  async execute(event: PartnerStatusChangedEvent): Promise<void> {
    const applied = await this.statuses.apply(event.partner_id, event.status, new Date(event.changed_at));
    if (applied)
      this.logger.log(
        `partner ${event.partner_id} is ${event.status}: its users' inflows are ${event.status === 'disabled' ? 'refused' : 'received'}`,
      );
  }
}
