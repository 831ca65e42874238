import { Controller, Inject } from '@nestjs/common';
import { CreateBusinessCustomerCommand, RequestReply, Topics } from '@partner/contracts';
import { HandleRequest } from '@partner/kafka';
import { CreateBusinessCustomerUseCase } from './create-business-customer.use-case';

@Controller()
export class CreateBusinessCustomerHandler {
  constructor(
    @Inject(CreateBusinessCustomerUseCase) private readonly createBusinessCustomer: Pick<CreateBusinessCustomerUseCase, 'execute'>,
  ) {}

  @HandleRequest(Topics.CustomersCreateBusiness)
  handle(command: CreateBusinessCustomerCommand): Promise<RequestReply<typeof Topics.CustomersCreateBusiness>> {
    return this.createBusinessCustomer.execute(command);
  }
}
