import { Module } from '@nestjs/common';
import { ApplyPartnerStatusUseCase } from './apply-partner-status.use-case';
import { PartnerStatusEventsHandler } from './partner-status-events.handler';
import { PartnerStatusRepository } from './partner-status.repository';

/** Which partners are disabled, from the gateway's events. */
@Module({
  controllers: [PartnerStatusEventsHandler],
  providers: [PartnerStatusRepository, ApplyPartnerStatusUseCase],
  exports: [PartnerStatusRepository],
})
export class PartnerStatusesModule {}
