import { Controller } from '@nestjs/common';
import { CreatePixKeyCommand, DeletePixKeyCommand, GetPixKeyQuery, RequestReply, Topics } from '@partner/contracts';
import { HandleRequest } from '@partner/kafka';
import { CreatePixKeyUseCase } from './create-pix-key.use-case';
import { DeletePixKeyUseCase } from './delete-pix-key.use-case';
import { GetPixKeyUseCase } from './get-pix-key.use-case';

@Controller()
export class PixKeysHandler {
  constructor(
    private readonly createPixKey: CreatePixKeyUseCase,
    private readonly deletePixKey: DeletePixKeyUseCase,
    private readonly getPixKey: GetPixKeyUseCase,
  ) {}

  @HandleRequest(Topics.PixKeysCreate)
  create(command: CreatePixKeyCommand): Promise<RequestReply<typeof Topics.PixKeysCreate>> {
    return this.createPixKey.execute(command);
  }

  @HandleRequest(Topics.PixKeysDelete)
  delete(command: DeletePixKeyCommand): Promise<RequestReply<typeof Topics.PixKeysDelete>> {
    return this.deletePixKey.execute(command);
  }

  @HandleRequest(Topics.PixKeysGet)
  get(query: GetPixKeyQuery): Promise<RequestReply<typeof Topics.PixKeysGet>> {
    return this.getPixKey.execute(query);
  }
}
