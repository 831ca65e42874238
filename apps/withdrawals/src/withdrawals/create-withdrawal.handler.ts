import { Controller } from '@nestjs/common';
import { Ctx, Payload } from '@nestjs/microservices';
import { CreateWithdrawalCommand, RequestReply, Topics } from '@partner/contracts';
import { commandIdOf, HandleRequest, KafkaMessageContext } from '@partner/kafka';
import { CreateWithdrawalUseCase } from './create-withdrawal.use-case';

@Controller()
export class CreateWithdrawalHandler {
  constructor(private readonly createWithdrawal: CreateWithdrawalUseCase) {}

  // @Ctx() hands the message's context over (Nest passes only the payload to an undecorated handler): its command id.
  @HandleRequest(Topics.WithdrawalsCreate)
  handle(
    @Payload() command: CreateWithdrawalCommand,
    @Ctx() context: KafkaMessageContext,
  ): Promise<RequestReply<typeof Topics.WithdrawalsCreate>> {
    return this.createWithdrawal.execute(command, commandIdOf(context));
  }
}
