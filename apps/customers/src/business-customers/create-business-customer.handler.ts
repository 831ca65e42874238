import { Controller } from '@nestjs/common';
import { CreateBusinessCustomerCommand, RequestReply, Topics } from '@partner/contracts';
import { HandleRequest } from '@partner/kafka';
import { CreateBusinessCustomerUseCase } from './create-business-customer.use-case';

@Controller()
export class CreateBusinessCustomerHandler {
  constructor(private readonly createBusinessCustomer: CreateBusinessCustomerUseCase) {}

  @HandleRequest(Topics.CustomersCreateBusiness)
  handle(command: CreateBusinessCustomerCommand): Promise<RequestReply<typeof Topics.CustomersCreateBusiness>> {
    return this.createBusinessCustomer.execute(command);
  }
}
