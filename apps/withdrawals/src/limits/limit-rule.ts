import { LimitUsage, Limits } from './limits.repository';

/** Which limit a withdrawal would pass. */
export type LimitName = 'per_withdrawal' | 'daily' | 'monthly' | 'partner_daily';

const WHAT: Record<LimitName, string> = {
  per_withdrawal: "the user's limit per withdrawal",
  daily: "the user's daily limit (any 24 hours)",
  monthly: "the user's monthly limit (any 30 days)",
  partner_daily: "the partner's daily limit for all its users (any 24 hours)",
};

/** What is left of a limit after `used` (never below 0). */
export const remaining = (limit: bigint, used: bigint): bigint => (used >= limit ? 0n : limit - used);

/**
 * The limit rule of a withdrawal of `amount` micros (its amount, the network fee aside): the first limit it
 * would pass, with the sentence the partner reads (the limit and what is left), or null when it fits them all.
 */
export function limitPassed(limits: Limits, usage: LimitUsage, amount: bigint): { limit: LimitName; message: string } | null {
  const checks: [LimitName, bigint | null, bigint][] = [
    ['per_withdrawal', limits.perWithdrawal, 0n],
    ['daily', limits.daily, usage.daily],
    ['monthly', limits.monthly, usage.monthly],
    ['partner_daily', limits.partnerDaily, usage.partnerDaily],
  ];
  for (const [name, limit, used] of checks) {
    if (limit === null || used + amount <= limit) continue;
    const left = name === 'per_withdrawal' ? '' : `; ${used} used, ${remaining(limit, used)} left`;
    return { limit: name, message: `${amount} micros is over ${WHAT[name]} of ${limit} micros${left}` };
  }
  return null;
}
