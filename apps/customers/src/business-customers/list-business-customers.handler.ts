import { Controller } from '@nestjs/common';
import { ListBusinessCustomersQuery, RequestReply, Topics } from '@partner/contracts';
import { HandleRequest } from '@partner/kafka';
import { ListBusinessCustomersUseCase } from './list-business-customers.use-case';

@Controller()
export class ListBusinessCustomersHandler {
  constructor(private readonly listBusinessCustomers: ListBusinessCustomersUseCase) {}

  @HandleRequest(Topics.CustomersList)
  handle(query: ListBusinessCustomersQuery): Promise<RequestReply<typeof Topics.CustomersList>> {
    return this.listBusinessCustomers.execute(query);
  }
}
