import { Module } from '@nestjs/common';
import { ForwardingBus } from '../http/forwarding-bus';
import { WithdrawalsController } from './withdrawals.controller';

@Module({ controllers: [WithdrawalsController], providers: [ForwardingBus] })
export class WithdrawalsModule {}
