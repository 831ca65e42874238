import { Injectable } from '@nestjs/common';
import { CreditAccountCommand, CreditAccountResult, ok, Reply } from '@partner/contracts';
import { UnitOfWork } from '@partner/kafka';
import { AccountRepository } from './account.repository';

/** Sandbox: create a user with a USDT balance, or credit an existing one. */
@Injectable()
export class CreditAccountUseCase {
  constructor(private readonly unitOfWork: UnitOfWork, private readonly accounts: AccountRepository) {}

  async execute(command: CreditAccountCommand): Promise<Reply<CreditAccountResult>> {
    const result = await this.unitOfWork.run((tx) => this.accounts.credit(tx, command.partner_id, command.document, BigInt(command.usdt_micros)));
    return ok({ document: command.document, usdt_micros: Number(result.availableMicros), created: result.created });
  }
}
