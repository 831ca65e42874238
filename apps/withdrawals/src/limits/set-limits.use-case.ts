import { Injectable, Logger } from '@nestjs/common';
import { fail, ok, RequestReply, SetLimitsCommand, Topics } from '@partner/contracts';
import { Limits, LimitsRepository } from './limits.repository';
import { toLimitsView } from './limits-view';

const big = (v: number | null | undefined): bigint | null => (v === null || v === undefined ? null : BigInt(v));

/**
 * The operator sets a partner's withdrawal limits, or one user's own (each replaced whole: a field left out is
 * null). They apply to the withdrawals asked for from then on; the use already made counts against them.
 */
@Injectable()
export class SetLimitsUseCase {
  private readonly logger = new Logger('limits');

  constructor(private readonly limits: LimitsRepository) {}

  async execute(c: SetLimitsCommand): Promise<RequestReply<typeof Topics.WithdrawalsSetLimits>> {
    const at = new Date(c.asked_at);
    const set: Limits = {
      perWithdrawal: big(c.per_withdrawal_usdt_micros),
      daily: big(c.daily_usdt_micros),
      monthly: big(c.monthly_usdt_micros),
      partnerDaily: c.document === undefined ? big(c.partner_daily_usdt_micros) : null,
      approvalThreshold: c.document === undefined ? big(c.approval_threshold_usdt_micros) : null,
    };
    if (c.document === undefined) {
      await this.limits.setPartner(c.partner_id, set, c.by, at);
      this.logger.log(
        `${c.by} set the limits of partner ${c.partner_id}: ${JSON.stringify(c, ['per_withdrawal_usdt_micros', 'daily_usdt_micros', 'monthly_usdt_micros', 'partner_daily_usdt_micros', 'approval_threshold_usdt_micros'])}`,
      );
      return ok(toLimitsView(c.partner_id, null, await this.limits.partner(c.partner_id)));
    }
    if (!(await this.limits.setUser(c.partner_id, c.document, set, c.by, at)))
      return fail('user_not_found', `no user with document ${c.document}`);
    this.logger.log(`${c.by} set the own limits of user ${c.document} of partner ${c.partner_id}`);
    return ok(toLimitsView(c.partner_id, c.document, await this.limits.user(c.partner_id, c.document)));
  }
}
