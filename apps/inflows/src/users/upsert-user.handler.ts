import { Controller } from '@nestjs/common';
import { RequestReply, Topics, UpsertUserCommand } from '@partner/contracts';
import { HandleRequest } from '@partner/kafka';
import { RecordPartnerUserUseCase } from '@partner/platform';

@Controller()
export class UpsertUserHandler {
  constructor(private readonly recordUser: RecordPartnerUserUseCase) {}

  @HandleRequest(Topics.InflowsUpsertUser)
  handle(command: UpsertUserCommand): Promise<RequestReply<typeof Topics.InflowsUpsertUser>> {
    return this.recordUser.execute(command);
  }
}
