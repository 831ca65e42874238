import { Module } from '@nestjs/common';
import { ForwardingBus } from '../http/forwarding-bus';
import { UserBalanceController } from './user-balance.controller';
import { UserLimitsController } from './user-limits.controller';
import { AddressBookController } from './address-book.controller';
import { WithdrawalsController } from './withdrawals.controller';

@Module({
  controllers: [WithdrawalsController, UserBalanceController, UserLimitsController, AddressBookController],
  providers: [ForwardingBus],
})
export class WithdrawalsModule {}
