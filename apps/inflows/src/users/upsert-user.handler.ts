import { Controller } from '@nestjs/common';
import { ok, RequestReply, Topics, UpsertUserCommand } from '@partner/contracts';
import { HandleRequest } from '@partner/kafka';
import { UserRepository } from './user.repository';

/** Sandbox user fan-out (POST /sandbox/v1/users): the user may receive Pix from now on. */
@Controller()
export class UpsertUserHandler {
  constructor(private readonly users: UserRepository) {}

  @HandleRequest(Topics.InflowsUpsertUser)
  async handle(command: UpsertUserCommand): Promise<RequestReply<typeof Topics.InflowsUpsertUser>> {
    return ok(await this.users.upsert(command.partner_id, command.document));
  }
}
