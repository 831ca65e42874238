import { Injectable, Logger } from '@nestjs/common';
import { AccountStatusView, fail, ok, RequestReply, SetAccountStatusCommand, Topics } from '@partner/contracts';
import { Transaction, UnitOfWork } from '@partner/db';
import { AccountRepository, UserAccountRecord } from './account.repository';

type Reply = RequestReply<typeof Topics.InflowsSetAccountStatus>;

export const toAccountStatusView = (a: UserAccountRecord): AccountStatusView => ({
  document: a.document,
  branch: a.branch,
  number: a.number,
  type: a.type,
  status: a.status,
  status_reason: a.statusReason,
  status_changed_at: a.statusChangedAt ? Math.floor(a.statusChangedAt.getTime() / 1000) : null,
  available_brl_cents: Number(a.availableBrlCents),
});

/**
 * inflows.command.set-account-status.v1: an operator blocks a user's payment account (every new Pix to it is refused
 * to the provider, account_blocked), makes it active again, or closes it (refused for good, account_closed). Closed
 * is final; closing needs a zero balance (nothing blocked either), no inflow still settling, no refund under way and no open MED case (the account row is locked: a credit waits).
 * The same status again changes nothing.
 */
@Injectable()
export class SetAccountStatusUseCase {
  private readonly logger = new Logger('Accounts');

  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly accounts: AccountRepository,
  ) {}

  /** Why the account cannot be closed now: money in it, or money still on its way in or out; null when it can. */
  private async whyNotClosable(tx: Transaction, account: UserAccountRecord, ref: string): Promise<string | null> {
    if (account.availableBrlCents !== 0n) return `account ${ref} holds ${account.availableBrlCents} BRL cents: it cannot be closed`;
    if (account.blockedBrlCents !== 0n)
      return `account ${ref} holds ${account.blockedBrlCents} BRL cents blocked by MED cases: it cannot be closed`;
    if (await this.accounts.inflowsUnderWay(tx, account.partnerId, account.document))
      return `account ${ref} has a Pix still settling, a refund under way or an open MED case: it cannot be closed yet`;
    return null;
  }

  execute(command: SetAccountStatusCommand): Promise<Reply> {
    return this.unitOfWork.run(async (tx) => {
      const account = await this.accounts.lock(tx, command.partner_id, command.document);
      if (!account) return fail('user_not_found', `no user with document ${command.document}`);
      const ref = `${account.branch}/${account.number}`;
      if (account.status === command.status) return ok(toAccountStatusView(account));
      if (account.status === 'closed') return fail('account_closed', `account ${ref} is closed: closed is final`, 'status');
      const notClosable = command.status === 'closed' ? await this.whyNotClosable(tx, account, ref) : null;
      if (notClosable) return fail('account_not_empty', notClosable, 'status');
      const changed = await this.accounts.setStatus(tx, command.partner_id, command.document, {
        status: command.status,
        reason: command.reason,
        at: new Date(command.asked_at),
      });
      this.logger.log(
        `account ${ref} of partner ${command.partner_id}: ${account.status} → ${changed.status} by ${command.by} (${command.reason})`,
      );
      return ok(toAccountStatusView(changed));
    });
  }
}
