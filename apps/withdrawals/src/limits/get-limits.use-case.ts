import { Injectable } from '@nestjs/common';
import { fail, GetUserLimitsQuery, LimitsView, ok, PartnerId, RequestReply, Topics } from '@partner/contracts';
import { AccountRepository } from '../accounts/account.repository';
import { LimitsRepository } from './limits.repository';
import { toLimitsView, toLimitUse } from './limits-view';

/** A partner's limits (operator API), and a user's limits in force with their use (partner API). */
@Injectable()
export class GetLimitsUseCase {
  constructor(
    private readonly limits: LimitsRepository,
    private readonly accounts: AccountRepository,
  ) {}

  async partner(partnerId: PartnerId): Promise<LimitsView> {
    return toLimitsView(partnerId, null, await this.limits.partner(partnerId));
  }

  async user(q: GetUserLimitsQuery): Promise<RequestReply<typeof Topics.WithdrawalsUserLimits>> {
    if (!(await this.accounts.find(q.partner_id, q.document))) return fail('user_not_found', `no user with document ${q.document}`);
    const [limits, usage] = await Promise.all([
      this.limits.effective(q.partner_id, q.document),
      this.limits.usage(q.partner_id, q.document, new Date()),
    ]);
    return ok({
      document: q.document,
      per_withdrawal_usdt_micros: limits.perWithdrawal === null ? null : Number(limits.perWithdrawal),
      daily: toLimitUse(limits.daily, usage.daily),
      monthly: toLimitUse(limits.monthly, usage.monthly),
      partner_daily: toLimitUse(limits.partnerDaily, usage.partnerDaily),
    });
  }
}
