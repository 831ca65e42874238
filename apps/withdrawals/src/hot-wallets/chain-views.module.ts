import { Module } from '@nestjs/common';
import { CancelPayoutUseCase } from '../payouts/cancel-payout.use-case';
import { PayoutsModule } from '../payouts/payouts.module';
import { ListFindingsUseCase } from '../reconciliation/list-findings.use-case';
import { ReconcileUseCase } from '../reconciliation/reconcile.use-case';
import { ReconciliationService } from '../reconciliation/reconciliation.service';
import { StepFindingUseCase } from '../reconciliation/step-finding.use-case';
import { ChainViewsHandler } from './chain-views.handler';
import { ListHotWalletsUseCase } from './list-hot-wallets.use-case';

/** The operator's chain views (hot wallets, reconciliation), the cancel of a payout's nonce, and the periodic reconciliation. */
@Module({
  imports: [PayoutsModule],
  controllers: [ChainViewsHandler],
  providers: [ListHotWalletsUseCase, ReconcileUseCase, ListFindingsUseCase, StepFindingUseCase, CancelPayoutUseCase, ReconciliationService],
})
export class ChainViewsModule {}
