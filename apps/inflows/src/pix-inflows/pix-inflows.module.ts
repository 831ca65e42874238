import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module';
import { PartnerStatusesModule } from '../partner-statuses/partner-statuses.module';
import { IngestPixInflowUseCase } from './ingest-pix-inflow.use-case';
import { ListPixInflowsUseCase } from './list-pix-inflows.use-case';
import { ListUnmatchedPixInflowsUseCase } from './list-unmatched-pix-inflows.use-case';
import { PixInflowRepository } from './pix-inflow.repository';
import { PixInflowsHandler } from './pix-inflows.handler';
import { UnmatchedPixInflowRepository } from './unmatched-pix-inflow.repository';

/**
 * The inflows: recorded and moved only by the Pix provider's notifications (IngestPixInflowUseCase, the
 * sandbox's too), credited to the receiving account's user, or kept aside when no user has it; listed.
 */
@Module({
  imports: [AccountsModule, PartnerStatusesModule],
  controllers: [PixInflowsHandler],
  providers: [
    PixInflowRepository,
    UnmatchedPixInflowRepository,
    IngestPixInflowUseCase,
    ListPixInflowsUseCase,
    ListUnmatchedPixInflowsUseCase,
  ],
  exports: [IngestPixInflowUseCase, PixInflowRepository],
})
export class PixInflowsModule {}
