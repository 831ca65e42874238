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
import { OpenUserAccountUseCase } from './open-user-account.use-case';

@Module({
  imports: [RefusalsModule],
  controllers: [UpsertUserHandler, CreditAccountHandler, GetBalanceHandler, ListUsersHandler],
  providers: [AccountRepository, OpenUserAccountUseCase, CreditAccountUseCase, GetBalanceUseCase, ListUsersUseCase],
  exports: [AccountRepository],
})
export class AccountsModule {}
