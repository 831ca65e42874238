import { Controller } from '@nestjs/common';
import { CreatePixKeyCommand, DeletePixKeyCommand, RequestReply, Topics } from '@partner/contracts';
import { HandleRequest } from '@partner/kafka';
import { CreatePixKeyUseCase } from './create-pix-key.use-case';
import { DeletePixKeyUseCase } from './delete-pix-key.use-case';

@Controller()
export class PixKeysHandler {
  constructor(private readonly createPixKey: CreatePixKeyUseCase, private readonly deletePixKey: DeletePixKeyUseCase) {}

  @HandleRequest(Topics.PixKeysCreate)
  create(command: CreatePixKeyCommand): Promise<RequestReply<typeof Topics.PixKeysCreate>> {
    return this.createPixKey.execute(command);
  }

  @HandleRequest(Topics.PixKeysDelete)
  delete(command: DeletePixKeyCommand): Promise<RequestReply<typeof Topics.PixKeysDelete>> {
    return this.deletePixKey.execute(command);
  }
}
