import { Controller } from '@nestjs/common';
import { CreatePixKeyCommand, DeletePixKeyCommand, fail, ok, RequestReply, Topics, UpsertUserCommand } from '@partner/contracts';
import { HandleRequest } from '@partner/kafka';

/** Consumes the Pix key commands; their behaviour arrives with issue #3, until then they answer `not_implemented`. */
@Controller()
export class PixKeysHandler {
  @HandleRequest(Topics.PixKeysCreate)
  async create(_command: CreatePixKeyCommand): Promise<RequestReply<typeof Topics.PixKeysCreate>> {
    return fail('not_implemented', 'Pix key creation is not available yet');
  }

  @HandleRequest(Topics.PixKeysDelete)
  async delete(_command: DeletePixKeyCommand): Promise<RequestReply<typeof Topics.PixKeysDelete>> {
    return fail('not_implemented', 'Pix key deletion is not available yet');
  }

  /** Placeholder until users are stored here (issue #3). */
  @HandleRequest(Topics.PixKeysUpsertUser)
  async upsertUser(_command: UpsertUserCommand): Promise<RequestReply<typeof Topics.PixKeysUpsertUser>> {
    return ok({ created: false });
  }
}
