import { Controller } from '@nestjs/common';
import { ListWithdrawalsQuery, RequestReply, Topics } from '@partner/contracts';
import { HandleRequest } from '@partner/kafka';
import { ListWithdrawalsUseCase } from './list-withdrawals.use-case';

@Controller()
export class ListWithdrawalsHandler {
  constructor(private readonly listWithdrawals: ListWithdrawalsUseCase) {}

  @HandleRequest(Topics.WithdrawalsList)
  handle(query: ListWithdrawalsQuery): Promise<RequestReply<typeof Topics.WithdrawalsList>> {
    return this.listWithdrawals.execute(query);
  }
}
