import { Module } from '@nestjs/common';
import { CreateWithdrawalUseCase } from './create-withdrawal.use-case';
import { WithdrawalsController } from './withdrawals.controller';

@Module({ controllers: [WithdrawalsController], providers: [CreateWithdrawalUseCase] })
export class WithdrawalsModule {}
