import { Module } from '@nestjs/common';
import { Database } from '@partner/db';
import { AccountsModule } from '../accounts/accounts.module';
import { HotWalletsModule } from '../hot-wallets/hot-wallets.module';
import { ADDRESS_SCREENING_PROVIDERS } from '../screening/address-screening.providers';
import { CancelPayoutUseCase } from './cancel-payout.use-case';
import { FailBeforeSigning } from './fail-before-signing';
import { FindingRepository } from './finding.repository';
import { GuardWalletNonceUseCase } from './guard-wallet-nonce.use-case';
import { PayoutMetrics } from './payout-metrics';
import { PayoutRoundLeaseRepository } from './payout-round-lease.repository';
import { PayoutRoundsService } from './payout-rounds.service';
import { PayoutRepository } from './payout.repository';
import { PayoutsHandler } from './payouts.handler';
import { SignPayoutsUseCase } from './sign-payouts.use-case';
import { TrackPayoutsUseCase } from './track-payouts.use-case';

const leases = {
  provide: PayoutRoundLeaseRepository,
  inject: [Database],
  useFactory: (db: Database) => new PayoutRoundLeaseRepository(db),
};

/** What the reconciliation, the withdrawals and the screening use too. */
const shared = [
  PayoutMetrics,
  PayoutRepository,
  FindingRepository,
  GuardWalletNonceUseCase,
  FailBeforeSigning,
  ...ADDRESS_SCREENING_PROVIDERS,
];

/**
 * Real USDT payouts: the rounds that sign and track them from the hot wallets (HotWalletsModule: the rails,
 * the pool, the wallets' books, exported on to this module's importers), and the operator's cancel of a
 * payout's nonce. Builds on hot-wallets/ alone of the chain folders; reconciliation/ builds on it.
 */
@Module({
  imports: [AccountsModule, HotWalletsModule],
  controllers: [PayoutsHandler],
  providers: [...shared, leases, SignPayoutsUseCase, TrackPayoutsUseCase, PayoutRoundsService, CancelPayoutUseCase],
  exports: [...shared, HotWalletsModule, AccountsModule],
})
export class PayoutsModule {}
