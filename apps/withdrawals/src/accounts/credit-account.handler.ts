import { Controller } from '@nestjs/common';
import { CreditAccountCommand, RequestReply, Topics } from '@partner/contracts';
import { HandleRequest } from '@partner/kafka';
import { CreditAccountUseCase } from './credit-account.use-case';

@Controller()
export class CreditAccountHandler {
  constructor(private readonly creditAccount: CreditAccountUseCase) {}

  @HandleRequest(Topics.WithdrawalsCreditAccount)
  handle(command: CreditAccountCommand): Promise<RequestReply<typeof Topics.WithdrawalsCreditAccount>> {
    return this.creditAccount.execute(command);
  }
}
