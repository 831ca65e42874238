import { Topics } from '@partner/contracts';
import { answer, requestHandlers } from '@partner/kafka';
import { GetBrlBalanceUseCase, GetBrlLedgerUseCase } from './brl-balance.use-cases';
import { OpenAccountUseCase } from './open-account.use-case';
import { SetAccountStatusUseCase } from './set-account-status.use-case';

export const AccountsHandler = requestHandlers('AccountsHandler', [
  // A user registered by the operator (or the sandbox): known here, with a payment account.
  answer(Topics.InflowsUpsertUser, OpenAccountUseCase),
  answer(Topics.InflowsGetBalance, GetBrlBalanceUseCase),
  answer(Topics.InflowsLedger, GetBrlLedgerUseCase),
  answer(Topics.InflowsSetAccountStatus, SetAccountStatusUseCase),
]);
