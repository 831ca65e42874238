import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module';
import { GetLedgerHandler } from './get-ledger.handler';
import { GetLedgerUseCase } from './get-ledger.use-case';
import { LedgerRepository } from './ledger.repository';

/** The operator's read of a user's ledger (withdrawals.query.ledger.v1). */
@Module({ imports: [AccountsModule], controllers: [GetLedgerHandler], providers: [LedgerRepository, GetLedgerUseCase] })
export class LedgerModule {}
