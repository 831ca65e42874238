import { Module } from '@nestjs/common';
import { RefusalsModule } from '../refusals/refusals.module';
import { AccountRepository } from './account.repository';
import { CreditAccountHandler } from './credit-account.handler';
import { CreditAccountUseCase } from './credit-account.use-case';
import { GetBalanceHandler } from './get-balance.handler';
import { GetBalanceUseCase } from './get-balance.use-case';
import { ListUsersHandler } from './list-users.handler';
import { ListUsersUseCase } from './list-users.use-case';
import { UpsertUserHandler } from './upsert-user.handler';
import { UpsertUserUseCase } from './upsert-user.use-case';

@Module({
  imports: [RefusalsModule],
  controllers: [UpsertUserHandler, CreditAccountHandler, GetBalanceHandler, ListUsersHandler],
  providers: [AccountRepository, UpsertUserUseCase, CreditAccountUseCase, GetBalanceUseCase, ListUsersUseCase],
  exports: [AccountRepository],
})
export class AccountsModule {}
