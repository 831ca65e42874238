import { Controller } from '@nestjs/common';
import { Ctx, Payload } from '@nestjs/microservices';
import { CreatePixKeyCommand, DeletePixKeyCommand, GetPixKeyQuery, ListPixKeysQuery, RequestReply, Topics } from '@partner/contracts';
import { commandIdOf, HandleRequest, KafkaMessageContext } from '@partner/kafka';
import { CreatePixKeyUseCase } from './create-pix-key.use-case';
import { DeletePixKeyUseCase } from './delete-pix-key.use-case';
import { GetPixKeyUseCase } from './get-pix-key.use-case';
import { ListPixKeysUseCase } from './list-pix-keys.use-case';

@Controller()
export class PixKeysHandler {
  constructor(
    private readonly createPixKey: CreatePixKeyUseCase,
    private readonly deletePixKey: DeletePixKeyUseCase,
    private readonly getPixKey: GetPixKeyUseCase,
    private readonly listPixKeys: ListPixKeysUseCase,
  ) {}

  // @Ctx() hands the message's context over (Nest passes only the payload to an undecorated handler): its command id.
  @HandleRequest(Topics.PixKeysCreate)
  create(@Payload() command: CreatePixKeyCommand, @Ctx() context: KafkaMessageContext): Promise<RequestReply<typeof Topics.PixKeysCreate>> {
    return this.createPixKey.execute(command, commandIdOf(context));
  }

  @HandleRequest(Topics.PixKeysDelete)
  delete(@Payload() command: DeletePixKeyCommand, @Ctx() context: KafkaMessageContext): Promise<RequestReply<typeof Topics.PixKeysDelete>> {
    return this.deletePixKey.execute(command, commandIdOf(context));
  }

  @HandleRequest(Topics.PixKeysGet)
  get(query: GetPixKeyQuery): Promise<RequestReply<typeof Topics.PixKeysGet>> {
    return this.getPixKey.execute(query);
  }

  @HandleRequest(Topics.PixKeysList)
  list(query: ListPixKeysQuery): Promise<RequestReply<typeof Topics.PixKeysList>> {
    return this.listPixKeys.execute(query);
  }
}
