import { Controller } from '@nestjs/common';
import { GetBusinessCustomerQuery, RequestReply, Topics } from '@partner/contracts';
import { HandleRequest } from '@partner/kafka';
import { GetBusinessCustomerUseCase } from './get-business-customer.use-case';

@Controller()
export class GetBusinessCustomerHandler {
  constructor(private readonly getBusinessCustomer: GetBusinessCustomerUseCase) {}

  @HandleRequest(Topics.CustomersGet)
  handle(query: GetBusinessCustomerQuery): Promise<RequestReply<typeof Topics.CustomersGet>> {
    return this.getBusinessCustomer.execute(query);
  }
}
