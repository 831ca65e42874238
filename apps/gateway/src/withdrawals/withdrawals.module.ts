import { Module } from '@nestjs/common';
import { CreateWithdrawalUseCase } from './create-withdrawal.use-case';
import { GetWithdrawalUseCase } from './get-withdrawal.use-case';
import { WithdrawalsController } from './withdrawals.controller';

@Module({ controllers: [WithdrawalsController], providers: [CreateWithdrawalUseCase, GetWithdrawalUseCase] })
export class WithdrawalsModule {}
