import { Controller } from '@nestjs/common';
import { GetBrlBalanceQuery, GetBrlLedgerQuery, RequestReply, Topics, UpsertUserCommand } from '@partner/contracts';
import { HandleRequest } from '@partner/kafka';
import { GetBrlBalanceUseCase, GetBrlLedgerUseCase } from './brl-balance.use-cases';
import { OpenAccountUseCase } from './open-account.use-case';

@Controller()
export class AccountsHandler {
  constructor(
    private readonly openAccount: OpenAccountUseCase,
    private readonly getBalance: GetBrlBalanceUseCase,
    private readonly getLedger: GetBrlLedgerUseCase,
  ) {}

  /** A user registered by the operator (or the sandbox): known here, with a payment account. */
  @HandleRequest(Topics.InflowsUpsertUser)
  upsertUser(command: UpsertUserCommand): Promise<RequestReply<typeof Topics.InflowsUpsertUser>> {
    return this.openAccount.execute(command);
  }

  @HandleRequest(Topics.InflowsGetBalance)
  balance(query: GetBrlBalanceQuery): Promise<RequestReply<typeof Topics.InflowsGetBalance>> {
    return this.getBalance.execute(query);
  }

  @HandleRequest(Topics.InflowsLedger)
  ledger(query: GetBrlLedgerQuery): Promise<RequestReply<typeof Topics.InflowsLedger>> {
    return this.getLedger.execute(query);
  }
}
