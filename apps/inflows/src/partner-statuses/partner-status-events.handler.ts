import { Controller } from '@nestjs/common';
import { PartnerStatusChangedEvent, Topics } from '@partner/contracts';
import { HandleEvent } from '@partner/kafka';
import { ApplyPartnerStatusUseCase } from './apply-partner-status.use-case';

/** Consumes the gateway's partner-status-changed events (a consumer group of this service's: every change, once). */
@Controller()
export class PartnerStatusEventsHandler {
  constructor(private readonly applyStatus: ApplyPartnerStatusUseCase) {}

  @HandleEvent(Topics.GatewayPartnerStatusChanged)
  handle(event: PartnerStatusChangedEvent): Promise<void> {
    return this.applyStatus.execute(event);
  }
}
