import { Controller } from '@nestjs/common';
import { Ctx, Payload } from '@nestjs/microservices';
import { CreditAccountCommand, RequestReply, Topics } from '@partner/contracts';
import { commandIdOf, HandleRequest, KafkaMessageContext } from '@partner/kafka';
import { CreditAccountUseCase } from './credit-account.use-case';

@Controller()
export class CreditAccountHandler {
  constructor(private readonly creditAccount: CreditAccountUseCase) {}

  // @Ctx() hands the message's context over (Nest passes only the payload to an undecorated handler): its command id.
  @HandleRequest(Topics.WithdrawalsCreditAccount)
  handle(
    @Payload() command: CreditAccountCommand,
    @Ctx() context: KafkaMessageContext,
  ): Promise<RequestReply<typeof Topics.WithdrawalsCreditAccount>> {
    return this.creditAccount.execute(command, commandIdOf(context));
  }
}
