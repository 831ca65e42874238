import { Database, UnitOfWork } from '@partner/db';
import { AccountRepository } from '../accounts/account.repository';
import { WithdrawalApprovalRepository } from '../approvals/withdrawal-approval.repository';
import { DestinationsRepository } from '../destinations/destinations.repository';
import { LimitsRepository } from '../limits/limits.repository';
import { RefusedCommandRepository } from '../refusals/refused-command.repository';
import { AddressScreening } from '../screening/address-screening';
import { CreateWithdrawalUseCase } from './create-withdrawal.use-case';
import { WithdrawalRepository } from './withdrawal.repository';

/** The creation of withdrawals wired as the module wires it, on the test database, with the screening given. */
export const createWithdrawalUseCase = (db: Database, unitOfWork: UnitOfWork, screening: AddressScreening) =>
  new CreateWithdrawalUseCase(
    unitOfWork,
    new WithdrawalRepository(db),
    new RefusedCommandRepository(db),
    screening,
    new LimitsRepository(db),
    new AccountRepository(db),
    new WithdrawalApprovalRepository(db),
    new DestinationsRepository(db),
  );
