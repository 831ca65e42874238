import { Module } from '@nestjs/common';
import { AccountRepository } from './account.repository';
import { CreditAccountHandler } from './credit-account.handler';
import { CreditAccountUseCase } from './credit-account.use-case';

@Module({
  controllers: [CreditAccountHandler],
  providers: [AccountRepository, CreditAccountUseCase],
  exports: [AccountRepository],
})
export class AccountsModule {}
