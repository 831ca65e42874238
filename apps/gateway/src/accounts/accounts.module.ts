import { Module } from '@nestjs/common';
import { AccountStatusController } from './account-status.controller';
import { ManageAccountStatusUseCase } from './manage-account-status.use-case';

/** Operator API: users' payment accounts (their status), kept by the inflows service. */
@Module({
  controllers: [AccountStatusController],
  providers: [ManageAccountStatusUseCase],
})
export class AccountsModule {}
