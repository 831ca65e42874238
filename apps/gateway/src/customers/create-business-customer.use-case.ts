import { Injectable } from '@nestjs/common';
import { CreateBusinessCustomerRequest, CreateBusinessCustomerResult, PartnerId, Topics } from '@partner/contracts';
import { MessageBus } from '@partner/kafka';
import { unwrap } from '../http/unwrap-reply';

@Injectable()
export class CreateBusinessCustomerUseCase {
  constructor(private readonly bus: MessageBus) {}

  /** Keyed by partner and CNPJ, so registrations of one CNPJ land on one partition and are handled in turn. */
  async execute(partnerId: PartnerId, request: CreateBusinessCustomerRequest): Promise<CreateBusinessCustomerResult> {
    const command = { ...request, partner_id: partnerId };
    return unwrap(await this.bus.request(Topics.CustomersCreateBusiness, command, `${partnerId}:${request.cnpj}`));
  }
}
