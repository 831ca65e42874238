import { Topics } from '@partner/contracts';
import { answer, requestHandlers } from '@partner/kafka';
import { GetBrlBalanceUseCase, GetBrlLedgerUseCase } from './brl-balance.use-cases';
import { OpenAccountUseCase } from './open-account.use-case';

export const AccountsHandler = requestHandlers('AccountsHandler', [
  // A user registered by the operator (or the sandbox): known here, with a payment account.
  answer(Topics.InflowsUpsertUser, OpenAccountUseCase),
  answer(Topics.InflowsGetBalance, GetBrlBalanceUseCase),
  answer(Topics.InflowsLedger, GetBrlLedgerUseCase),
]);
