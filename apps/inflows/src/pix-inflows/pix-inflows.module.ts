import { Module } from '@nestjs/common';
import { IngestPixInflowUseCase } from './ingest-pix-inflow.use-case';
import { ListPixInflowsUseCase } from './list-pix-inflows.use-case';
import { PixInflowRepository } from './pix-inflow.repository';
import { PixInflowsHandler } from './pix-inflows.handler';

/** The inflows: recorded and moved only by the Pix provider's notifications (IngestPixInflowUseCase, the sandbox's too), and listed. */
@Module({
  controllers: [PixInflowsHandler],
  providers: [PixInflowRepository, IngestPixInflowUseCase, ListPixInflowsUseCase],
  exports: [IngestPixInflowUseCase],
})
export class PixInflowsModule {}
