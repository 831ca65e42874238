import { Module } from '@nestjs/common';
import { AdvancePixInflowsUseCase } from './advance-pix-inflows.use-case';
import { IngestPixInflowUseCase } from './ingest-pix-inflow.use-case';
import { ListPixInflowsUseCase } from './list-pix-inflows.use-case';
import { PixInflowRepository } from './pix-inflow.repository';
import { PixInflowsHandler } from './pix-inflows.handler';
import { RecordPixInflowUseCase } from './record-pix-inflow.use-case';
import { SettlementSimulatorService } from './settlement-simulator.service';

@Module({
  controllers: [PixInflowsHandler],
  providers: [PixInflowRepository, RecordPixInflowUseCase, IngestPixInflowUseCase, ListPixInflowsUseCase, AdvancePixInflowsUseCase, SettlementSimulatorService],
})
export class PixInflowsModule {}
