import { Module } from '@nestjs/common';
import { MedCaseEventsHandler } from './med-case-events.handler';
import { MedCaseRepository } from './med-case.repository';
import { RecordMedCaseDecisionUseCase } from './record-med-case-decision.use-case';

/** The inflows service's decisions on MED cases; the worker that talks to DICT about them is DictModule's. */
@Module({
  controllers: [MedCaseEventsHandler],
  providers: [MedCaseRepository, RecordMedCaseDecisionUseCase],
})
export class MedModule {}
