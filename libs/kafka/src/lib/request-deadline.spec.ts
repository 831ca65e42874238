import { deadlineAfter, deadlinePassed } from './request-deadline';

describe('request deadline', () => {
  it('passes once the caller has stopped waiting, not before', () => {
    const header = deadlineAfter(8_000, 1_000);
    expect(header).toBe('9000');
    expect(deadlinePassed(header, 9_000)).toBe(false);
    expect(deadlinePassed(header, 9_001)).toBe(true);
  });

  it('never expires a request without a readable deadline (an older sender, a foreign producer)', () => {
    expect(deadlinePassed(undefined, Number.MAX_SAFE_INTEGER)).toBe(false);
    expect(deadlinePassed('soon', Number.MAX_SAFE_INTEGER)).toBe(false);
  });
});
