import { Controller } from '@nestjs/common';
import { CreateWithdrawalCommand, RequestReply, Topics } from '@partner/contracts';
import { commandIdOf, HandleRequest, KafkaMessageContext } from '@partner/kafka';
import { CreateWithdrawalUseCase } from './create-withdrawal.use-case';

@Controller()
export class CreateWithdrawalHandler {
  constructor(private readonly createWithdrawal: CreateWithdrawalUseCase) {}

  @HandleRequest(Topics.WithdrawalsCreate)
  handle(command: CreateWithdrawalCommand, context: KafkaMessageContext): Promise<RequestReply<typeof Topics.WithdrawalsCreate>> {
    return this.createWithdrawal.execute(command, commandIdOf(context));
  }
}
