import { Inject, Injectable } from '@nestjs/common';
import { AccountView, Topics, UserAccount } from '@partner/contracts';
import { MessageBus } from '@partner/kafka';
import { PartnerRepository } from '../auth/partner.repository';
import { unixSeconds } from '../http/unix-seconds';
import { unwrap } from '../http/unwrap-reply';
import { requireKnownPartner } from '../partners/known-partner';
import { AdminUserView } from './users.dto';

export interface RegisteredUser extends AdminUserView {
  /** False when the user existed already. */
  created: boolean;
}

/** The account as the HTTP API answers it (times in Unix seconds). */
export const accountView = (account: UserAccount): AccountView => ({
  ispb: account.ispb,
  branch: account.branch,
  number: account.number,
  type: account.type,
  opened_at: unixSeconds(account.opened_at),
});

/**
 * Makes a user known to every service that keeps users of its own, and answers once all of them committed,
 * so the user is usable everywhere at once: withdrawals (the USDT account) and inflows (the payment account
 * at the operator, opened at the first registration, and the holder's name) in parallel, then pix-keys (who
 * may own a key) with the name and the account inflows answered, which DICT records with a key. Each
 * upsert is idempotent, so a retry after a partial failure completes the fan-out, and registering an
 * existing user again hands pix-keys its account (the backfill of users registered before accounts
 * existed). Withdrawals, which holds the money, says whether the user is new and since when.
 */
@Injectable()
export class RegisterUserUseCase {
  constructor(
    @Inject(PartnerRepository) private readonly partners: Pick<PartnerRepository, 'exists'>,
    @Inject(MessageBus) private readonly bus: Pick<MessageBus, 'request'>,
  ) {}

  /** `defaultName`: the holder's name of a user that has none (the sandbox's); never replaces one. */
  async execute(pathPartnerId: string, document: string, name?: string, defaultName?: string): Promise<RegisteredUser> {
    const partnerId = await requireKnownPartner(this.partners, pathPartnerId);
    const user = {
      partner_id: partnerId,
      document,
      ...(name !== undefined && { name }),
      ...(defaultName !== undefined && { default_name: defaultName }),
    };
    const [withdrawals, inflows] = await Promise.all([
      this.bus.request(Topics.WithdrawalsUpsertUser, { partner_id: partnerId, document }),
      this.bus.request(Topics.InflowsUpsertUser, user),
    ]);
    const usdt = unwrap(withdrawals);
    const { account } = unwrap(inflows);
    // A bug of ours, not the caller's fault: the inflows service answers every upsert with the account (a 500).
    if (!account) throw new Error(`inflows answered no account for user ${document}`);
    unwrap(await this.bus.request(Topics.PixKeysUpsertUser, { ...user, account }));
    return { document, created: usdt.created, created_at: unixSeconds(usdt.created_at), account: accountView(account) };
  }
}
