import { Injectable } from '@nestjs/common';
import { ok, RequestReply, Topics, UpsertUserCommand } from '@partner/contracts';
import { UserRepository } from './user.repository';

/** Makes a user of a partner known here, so that a Pix key can be registered for them. Idempotent. */
@Injectable()
export class UpsertUserUseCase {
  constructor(private readonly users: UserRepository) {}

  async execute(command: UpsertUserCommand): Promise<RequestReply<typeof Topics.PixKeysUpsertUser>> {
    const { created, createdAt } = await this.users.upsert(command.partner_id, command.document);
    return ok({ created, created_at: createdAt.toISOString() });
  }
}
