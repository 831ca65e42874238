import { LimitsView, LimitUse, PartnerId } from '@partner/contracts';
import { remaining } from './limit-rule';
import { StoredLimits } from './limits.repository';

const n = (v: bigint | null): number | null => (v === null ? null : Number(v));

/** A partner's limits (document null) or one user's own, as the operator API shows them. */
export const toLimitsView = (partnerId: PartnerId, document: string | null, l: StoredLimits): LimitsView => ({
  partner_id: partnerId,
  document,
  per_withdrawal_usdt_micros: n(l.perWithdrawal),
  daily_usdt_micros: n(l.daily),
  monthly_usdt_micros: n(l.monthly),
  partner_daily_usdt_micros: document === null ? n(l.partnerDaily) : null,
  approval_threshold_usdt_micros: document === null ? n(l.approvalThreshold) : null,
  updated_at: l.updatedAt === null ? null : Math.floor(l.updatedAt.getTime() / 1000),
  updated_by: l.updatedBy,
});

/** A limit over a window and its use. */
export const toLimitUse = (limit: bigint | null, used: bigint): LimitUse => ({
  limit_usdt_micros: n(limit),
  used_usdt_micros: Number(used),
  remaining_usdt_micros: limit === null ? null : Number(remaining(limit, used)),
});
