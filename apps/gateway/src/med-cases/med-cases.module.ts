import { Module } from '@nestjs/common';
import { ManageMedCasesUseCase } from './manage-med-cases.use-case';
import { MedCasesController } from './med-cases.controller';

/** Operator API: MED cases and their decisions, kept by the inflows service. */
@Module({
  controllers: [MedCasesController],
  providers: [ManageMedCasesUseCase],
})
export class MedCasesModule {}
