import { DynamicModule, Module } from '@nestjs/common';
import { serviceModule } from '@partner/platform';
import { AccountsModule } from './accounts/accounts.module';
import { LedgerModule } from './ledger/ledger.module';
import { WithdrawalsConfig } from './config/withdrawals.config';
import { WithdrawalsModule } from './withdrawals/withdrawals.module';
import { PayoutsModule } from './payouts/payouts.module';
import { ChainViewsModule } from './hot-wallets/chain-views.module';

@Module({})
export class AppModule {
  static register(config: WithdrawalsConfig): DynamicModule {
    return serviceModule(AppModule, {
      name: 'withdrawals',
      configClass: WithdrawalsConfig,
      config,
      features: [AccountsModule, WithdrawalsModule, LedgerModule, PayoutsModule, ChainViewsModule],
    });
  }
}
