import { Injectable } from '@nestjs/common';
import { ok, RequestReply, Topics, UpsertUserCommand } from '@partner/contracts';
import { UserRepository } from './user.repository';

/** Makes a user of a partner known here: they may receive Pix from now on. Idempotent. */
@Injectable()
export class UpsertUserUseCase {
  constructor(private readonly users: UserRepository) {}

  async execute(command: UpsertUserCommand): Promise<RequestReply<typeof Topics.InflowsUpsertUser>> {
    const { created, createdAt } = await this.users.upsert(command.partner_id, command.document);
    return ok({ created, created_at: createdAt.toISOString() });
  }
}
