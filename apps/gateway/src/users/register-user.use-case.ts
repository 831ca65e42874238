import { Inject, Injectable } from '@nestjs/common';
import { Topics } from '@partner/contracts';
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

/**
 * Makes a user known to every service that keeps users of its own (withdrawals: the USDT account;
 * pix-keys and inflows: who may own a key or receive a Pix), in parallel, and answers once all of them
 * committed, so the user is usable everywhere at once. Each upsert is idempotent, so a retry after a
 * partial failure completes the fan-out. Withdrawals, which holds the money, says whether the user is new
 * and since when.
 */
@Injectable()
export class RegisterUserUseCase {
  constructor(
    @Inject(PartnerRepository) private readonly partners: Pick<PartnerRepository, 'exists'>,
    @Inject(MessageBus) private readonly bus: Pick<MessageBus, 'request'>,
  ) {}

  async execute(pathPartnerId: string, document: string): Promise<RegisteredUser> {
    const partnerId = await requireKnownPartner(this.partners, pathPartnerId);
    const user = { partner_id: partnerId, document };
    const [withdrawals, pixKeys, inflows] = await Promise.all([
      this.bus.request(Topics.WithdrawalsUpsertUser, user),
      this.bus.request(Topics.PixKeysUpsertUser, user),
      this.bus.request(Topics.InflowsUpsertUser, user),
    ]);
    unwrap(pixKeys);
    unwrap(inflows);
    const account = unwrap(withdrawals);
    return { document, created: account.created, created_at: unixSeconds(account.created_at) };
  }
}
