import { from, HOLDS_NONCE, PAYOUT_STATES, PAYOUT_TRANSITIONS, UNSIGNED } from './payout-state';

describe('payout states', () => {
  it('moves only forward to an end: finished has no way out, and every state can reach finished', () => {
    expect(PAYOUT_TRANSITIONS.finished).toEqual([]);
    const reaches = (s: string, seen = new Set<string>()): boolean =>
      s === 'finished' ||
      (!seen.has(s) && PAYOUT_TRANSITIONS[s as keyof typeof PAYOUT_TRANSITIONS].some((n) => reaches(n, new Set([...seen, s]))));
    for (const s of PAYOUT_STATES) expect([s, reaches(s)]).toEqual([s, true]);
  });

  it('names the states a move may come from, as the statements use them', () => {
    expect(from('signed')).toEqual(['queued', 'aside']);
    expect(from('cancelling')).toEqual(['signed', 'broadcast']);
    // A cancel given up its nonce goes back to queued; nothing once mined can be cancelled.
    expect(from('queued')).toEqual(['aside', 'cancelling']);
    expect(from('cancelling')).not.toContain('mined');
  });

  it('tells apart what waits for a nonce from what holds one', () => {
    expect([...UNSIGNED, ...HOLDS_NONCE, 'finished'].sort()).toEqual([...PAYOUT_STATES].sort());
  });
});
