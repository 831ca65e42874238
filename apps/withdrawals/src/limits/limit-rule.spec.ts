import { limitPassed, remaining } from './limit-rule';
import { NO_LIMITS } from './limits.repository';

const usage = { daily: 700n, monthly: 2_000n, partnerDaily: 5_000n };

describe('the limit rule of a withdrawal', () => {
  it('lets anything through without limits, and a withdrawal that reaches a limit exactly', () => {
    expect(limitPassed(NO_LIMITS, usage, 10n ** 12n)).toBeNull();
    expect(
      limitPassed({ ...NO_LIMITS, daily: 1_000n, monthly: 2_300n, partnerDaily: 5_300n, perWithdrawal: 300n }, usage, 300n),
    ).toBeNull();
  });

  it('names the first limit passed, with the limit, the use and what is left', () => {
    expect(limitPassed({ ...NO_LIMITS, perWithdrawal: 299n }, usage, 300n)).toEqual({
      limit: 'per_withdrawal',
      message: "300 micros is over the user's limit per withdrawal of 299 micros",
    });
    expect(limitPassed({ ...NO_LIMITS, daily: 999n }, usage, 300n)).toEqual({
      limit: 'daily',
      message: "300 micros is over the user's daily limit (any 24 hours) of 999 micros; 700 used, 299 left",
    });
    expect(limitPassed({ ...NO_LIMITS, monthly: 2_299n }, usage, 300n)?.limit).toBe('monthly');
    expect(limitPassed({ ...NO_LIMITS, partnerDaily: 5_000n }, usage, 1n)).toEqual({
      limit: 'partner_daily',
      message: "1 micros is over the partner's daily limit for all its users (any 24 hours) of 5000 micros; 5000 used, 0 left",
    });
  });

  it('never tells a negative remainder (a limit lowered under the use)', () => {
    expect(remaining(500n, 700n)).toBe(0n);
    expect(limitPassed({ ...NO_LIMITS, daily: 500n }, usage, 1n)?.message).toContain('700 used, 0 left');
  });
});
