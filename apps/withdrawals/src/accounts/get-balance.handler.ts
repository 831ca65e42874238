import { Controller } from '@nestjs/common';
import { GetBalanceQuery, RequestReply, Topics } from '@partner/contracts';
import { HandleRequest } from '@partner/kafka';
import { GetBalanceUseCase } from './get-balance.use-case';

@Controller()
export class GetBalanceHandler {
  constructor(private readonly getBalance: GetBalanceUseCase) {}

  @HandleRequest(Topics.WithdrawalsGetBalance)
  handle(query: GetBalanceQuery): Promise<RequestReply<typeof Topics.WithdrawalsGetBalance>> {
    return this.getBalance.execute(query);
  }
}
