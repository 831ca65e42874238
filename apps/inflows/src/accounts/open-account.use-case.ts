import { Injectable } from '@nestjs/common';
import { ok, Reply, UpsertUserCommand, UpsertUserResult, UserAccount } from '@partner/contracts';
import { UnitOfWork } from '@partner/db';
import { InflowsConfig } from '../config/inflows.config';
import { AccountRepository, UserAccountRecord } from './account.repository';

/** The account as the upsert-user reply carries it (the gateway passes it on to pix-keys): at the operator's ISPB. */
export const accountOf = (config: Pick<InflowsConfig, 'OPERATOR_ISPB'>, a: UserAccountRecord): UserAccount => ({
  ispb: config.OPERATOR_ISPB,
  branch: a.branch,
  number: a.number,
  type: a.type,
  opened_at: a.openedAt.toISOString(),
});

/**
 * inflows.command.upsert-user.v1: makes the user known here and opens their payment account at the operator
 * (ACCOUNT_BRANCH, a number from the sequence with its check digit, type TRAN) the first time; stores the
 * holder's name when one is given (a later registration with a name sets or replaces it, one without leaves
 * it). Idempotent: the same user again answers the same account. One transaction: a user is never known
 * here without an account.
 */
@Injectable()
export class OpenAccountUseCase {
  constructor(
    private readonly config: InflowsConfig,
    private readonly unitOfWork: UnitOfWork,
    private readonly accounts: AccountRepository,
  ) {}

  async execute(command: UpsertUserCommand): Promise<Reply<UpsertUserResult, never>> {
    const now = new Date();
    const { created, createdAt, account } = await this.unitOfWork.run((tx) =>
      this.accounts.open(tx, {
        partnerId: command.partner_id,
        document: command.document,
        name: command.name,
        defaultName: command.default_name,
        branch: this.config.ACCOUNT_BRANCH,
        now,
      }),
    );
    return ok({ created, created_at: createdAt.toISOString(), account: accountOf(this.config, account) });
  }
}
