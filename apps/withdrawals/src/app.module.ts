import { serviceAppModule } from '@partner/platform';
import { AccountsModule } from './accounts/accounts.module';
import { LedgerModule } from './ledger/ledger.module';
import { WithdrawalsConfig } from './config/withdrawals.config';
import { WithdrawalsModule } from './withdrawals/withdrawals.module';
import { PayoutsModule } from './payouts/payouts.module';
import { HotWalletsModule } from './hot-wallets/hot-wallets.module';
import { ReconciliationModule } from './reconciliation/reconciliation.module';
import { ScreeningModule } from './screening/screening.module';
import { LimitsModule } from './limits/limits.module';
import { WithdrawalApprovalsModule } from './approvals/withdrawal-approvals.module';
import { WithdrawalReportsModule } from './reports/withdrawal-reports.module';
import { DestinationsModule } from './destinations/destinations.module';

export const AppModule = serviceAppModule({
  name: 'withdrawals',
  configClass: WithdrawalsConfig,
  features: [
    AccountsModule,
    WithdrawalsModule,
    LedgerModule,
    PayoutsModule,
    HotWalletsModule,
    ReconciliationModule,
    ScreeningModule,
    LimitsModule,
    WithdrawalApprovalsModule,
    WithdrawalReportsModule,
    DestinationsModule,
  ],
});
