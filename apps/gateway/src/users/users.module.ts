import { Module } from '@nestjs/common';
import { ApprovalsModule } from '../approvals/approvals.module';
import { CreditUserUseCase } from './credit-user.use-case';
import { GetUserBalanceUseCase } from './get-user-balance.use-case';
import { ReadUserBooksUseCase } from './read-user-books.use-case';
import { RegisterUserUseCase } from './register-user.use-case';
import { UsersController } from './users.controller';

/** Operator API: users and balances, kept by the services; the sandbox's user helper uses the same use cases. */
@Module({
  imports: [ApprovalsModule],
  controllers: [UsersController],
  providers: [RegisterUserUseCase, CreditUserUseCase, GetUserBalanceUseCase, ReadUserBooksUseCase],
  exports: [RegisterUserUseCase, CreditUserUseCase, GetUserBalanceUseCase],
})
export class UsersModule {}
