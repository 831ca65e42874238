import { Controller } from '@nestjs/common';
import { GetWithdrawalQuery, RequestReply, Topics } from '@partner/contracts';
import { HandleRequest } from '@partner/kafka';
import { GetWithdrawalUseCase } from './get-withdrawal.use-case';

@Controller()
export class GetWithdrawalHandler {
  constructor(private readonly getWithdrawal: GetWithdrawalUseCase) {}

  @HandleRequest(Topics.WithdrawalsGet)
  handle(query: GetWithdrawalQuery): Promise<RequestReply<typeof Topics.WithdrawalsGet>> {
    return this.getWithdrawal.execute(query);
  }
}
