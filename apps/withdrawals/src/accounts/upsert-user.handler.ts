import { Controller } from '@nestjs/common';
import { RequestReply, Topics, UpsertUserCommand } from '@partner/contracts';
import { HandleRequest } from '@partner/kafka';
import { OpenUserAccountUseCase } from './open-user-account.use-case';

@Controller()
export class UpsertUserHandler {
  constructor(private readonly openUserAccount: OpenUserAccountUseCase) {}

  @HandleRequest(Topics.WithdrawalsUpsertUser)
  handle(command: UpsertUserCommand): Promise<RequestReply<typeof Topics.WithdrawalsUpsertUser>> {
    return this.openUserAccount.execute(command);
  }
}
