import { Controller } from '@nestjs/common';
import { GetLedgerQuery, RequestReply, Topics } from '@partner/contracts';
import { HandleRequest } from '@partner/kafka';
import { GetLedgerUseCase } from './get-ledger.use-case';

@Controller()
export class GetLedgerHandler {
  constructor(private readonly getLedger: GetLedgerUseCase) {}

  @HandleRequest(Topics.WithdrawalsLedger)
  handle(query: GetLedgerQuery): Promise<RequestReply<typeof Topics.WithdrawalsLedger>> {
    return this.getLedger.execute(query);
  }
}
