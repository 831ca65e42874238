import { Module } from '@nestjs/common';
import { AccountRepository } from './account.repository';
import { AccountsHandler } from './accounts.handler';
import { GetBrlBalanceUseCase, GetBrlLedgerUseCase } from './brl-balance.use-cases';
import { OpenAccountUseCase } from './open-account.use-case';
import { SetAccountStatusUseCase } from './set-account-status.use-case';

/** Users and their payment accounts at the operator: opened at registration, credited by inflows, read by the operator and partners. */
@Module({
  controllers: [AccountsHandler],
  providers: [AccountRepository, OpenAccountUseCase, GetBrlBalanceUseCase, GetBrlLedgerUseCase, SetAccountStatusUseCase],
  exports: [AccountRepository],
})
export class AccountsModule {}
