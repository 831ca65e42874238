import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module';
import { PixInRefundRepository } from '../pix-in-refunds/pix-in-refund.repository';
import { PixInflowsModule } from '../pix-inflows/pix-inflows.module';
import { CancelMedCaseUseCase } from './cancel-med-case.use-case';
import { DecideMedCaseUseCase } from './decide-med-case.use-case';
import { ListMedCasesUseCase } from './list-med-cases.use-case';
import { MedCaseRepository } from './med-case.repository';
import { MedCaseEventsHandler, MedCasesHandler } from './med-cases.handler';
import { ReceiveMedCaseUseCase } from './receive-med-case.use-case';

/**
 * MED cases (docs/operations/pix-and-dict.md, "MED: blocking and returning funds"): received from the pix-keys
 * service, their funds blocked, decided by the operator. An accepted refund request's devolução goes through the
 * refunds' table and round (PixInRefundsModule, which settles it with MedCaseReturns).
 */
@Module({
  imports: [AccountsModule, PixInflowsModule],
  controllers: [MedCaseEventsHandler, MedCasesHandler],
  providers: [
    MedCaseRepository,
    PixInRefundRepository,
    ReceiveMedCaseUseCase,
    CancelMedCaseUseCase,
    DecideMedCaseUseCase,
    ListMedCasesUseCase,
  ],
})
export class MedCasesModule {}
