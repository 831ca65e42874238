import { Controller } from '@nestjs/common';
import { RequestReply, Topics, UpsertUserCommand } from '@partner/contracts';
import { HandleRequest } from '@partner/kafka';
import { UpsertUserUseCase } from '@partner/platform';

@Controller()
export class UpsertUserHandler {
  constructor(private readonly upsertUser: UpsertUserUseCase) {}

  @HandleRequest(Topics.PixKeysUpsertUser)
  handle(command: UpsertUserCommand): Promise<RequestReply<typeof Topics.PixKeysUpsertUser>> {
    return this.upsertUser.execute(command);
  }
}
