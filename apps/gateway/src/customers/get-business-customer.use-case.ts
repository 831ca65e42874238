import { Injectable } from '@nestjs/common';
import { GetBusinessCustomerResult, PartnerId, Topics } from '@partner/contracts';
import { MessageBus } from '@partner/kafka';
import { unwrap } from '../http/unwrap-reply';

@Injectable()
export class GetBusinessCustomerUseCase {
  constructor(private readonly bus: MessageBus) {}

  async execute(partnerId: PartnerId, id: string): Promise<GetBusinessCustomerResult> {
    // A read needs no order: unkeyed, reads spread over partitions and run side by side.
    return unwrap(await this.bus.request(Topics.CustomersGet, { partner_id: partnerId, id }));
  }
}
