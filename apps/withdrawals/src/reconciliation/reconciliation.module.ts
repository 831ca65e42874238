import { Module } from '@nestjs/common';
import { PayoutsModule } from '../payouts/payouts.module';
import { ListFindingsUseCase } from './list-findings.use-case';
import { ReconcileUseCase } from './reconcile.use-case';
import { ReconciliationHandler } from './reconciliation.handler';
import { ReconciliationRepository } from './reconciliation.repository';
import { ReconciliationService } from './reconciliation.service';
import { StepFindingUseCase } from './step-finding.use-case';

/**
 * The reconciliation of the books against the chain: the periodic run and the operator's (a run now, the
 * findings and their workflow). The top of the chain folders: it reads the payouts and the hot wallets
 * (PayoutsModule, which exports HotWalletsModule); neither imports it.
 */
@Module({
  imports: [PayoutsModule],
  controllers: [ReconciliationHandler],
  providers: [ReconciliationRepository, ReconcileUseCase, ListFindingsUseCase, StepFindingUseCase, ReconciliationService],
})
export class ReconciliationModule {}
