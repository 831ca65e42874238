import { Injectable } from '@nestjs/common';
import { GetWithdrawalResult, PartnerId, Topics } from '@partner/contracts';
import { MessageBus } from '@partner/kafka';
import { unwrap } from '../http/unwrap-reply';

@Injectable()
export class GetWithdrawalUseCase {
  constructor(private readonly bus: MessageBus) {}

  async execute(partnerId: PartnerId, id: number): Promise<GetWithdrawalResult> {
    // A read needs no order: unkeyed, reads spread over partitions and run side by side.
    return unwrap(await this.bus.request(Topics.WithdrawalsGet, { partner_id: partnerId, id }));
  }
}
