import { Controller } from '@nestjs/common';
import { ListUsersQuery, RequestReply, Topics } from '@partner/contracts';
import { HandleRequest } from '@partner/kafka';
import { ListUsersUseCase } from './list-users.use-case';

@Controller()
export class ListUsersHandler {
  constructor(private readonly listUsers: ListUsersUseCase) {}

  @HandleRequest(Topics.WithdrawalsListUsers)
  handle(query: ListUsersQuery): Promise<RequestReply<typeof Topics.WithdrawalsListUsers>> {
    return this.listUsers.execute(query);
  }
}
