import { Controller } from '@nestjs/common';
import { CreateBusinessCustomerCommand, fail, RequestReply, Topics } from '@partner/contracts';
import { HandleRequest } from '@partner/kafka';

/** Consumes business customer registrations; the behaviour arrives with issue #3. */
@Controller()
export class BusinessCustomersHandler {
  @HandleRequest(Topics.CustomersCreateBusiness)
  async create(_command: CreateBusinessCustomerCommand): Promise<RequestReply<typeof Topics.CustomersCreateBusiness>> {
    return fail('not_implemented', 'business customer registration is not available yet');
  }
}
