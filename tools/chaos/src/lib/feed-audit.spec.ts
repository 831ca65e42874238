import { compareStates, inflowEvents, withdrawalEvents } from './feed-audit';

describe('withdrawalEvents: the feed a withdrawal final state implies', () => {
  it.each([
    ['settled', ['created', 'sent', 'settled']],
    ['failed', ['created', 'sent', 'failed']],
    ['failed before signing', ['created', 'failed']],
    ['approved:settled', ['pending_approval', 'created', 'sent', 'settled']],
    // Approved, then refused by the signing round (its destination listed meanwhile, or refused by the token).
    ['approved:failed before signing', ['pending_approval', 'created', 'failed']],
    ['rejected:failed before signing', ['pending_approval', 'failed']],
  ])('%s → %j', (state, events) => {
    expect(withdrawalEvents(state)).toEqual(events);
  });

  it.each(['created', 'sent', 'pending_approval:pending_approval', 'approved:created', 'rejected:settled'])(
    '%s is not final (or impossible): no expectation',
    (state) => {
      expect(withdrawalEvents(state)).toBeUndefined();
    },
  );
});

describe('inflowEvents: the feed an inflow and its returned refunds imply', () => {
  const credited = ['processing', 'approved', 'success', 'credited'];
  it.each([
    ['credited:0', credited],
    ['partially_returned:1', [...credited, 'partially_returned']],
    ['partially_returned:2', [...credited, 'partially_returned', 'partially_returned']],
    ['returned:1', [...credited, 'returned']],
    ['returned:3', [...credited, 'partially_returned', 'partially_returned', 'returned']],
    ['denied:0', ['processing', 'denied']],
  ])('%s → %j', (state, events) => {
    expect(inflowEvents(state)).toEqual(events);
  });

  it.each(['processing:0', 'credited:1', 'partially_returned:0', 'returned:0'])(
    '%s is not final (or impossible): no expectation',
    (state) => {
      expect(inflowEvents(state)).toBeUndefined();
    },
  );
});

describe('compareStates: a repeated state counts once per time it is expected', () => {
  it('two partial returns expected, two in the feed: nothing extra, nothing absent', () => {
    expect(
      compareStates(['credited', 'partially_returned', 'partially_returned'], ['credited', 'partially_returned', 'partially_returned']),
    ).toEqual({
      extra: 0,
      absent: 0,
    });
  });

  it('one expected, two in the feed: a duplicate; one missing: absent', () => {
    expect(compareStates(['created', 'success', 'success'], ['created', 'success'])).toEqual({ extra: 1, absent: 0 });
    expect(compareStates(['created'], ['created', 'processing', 'success'])).toEqual({ extra: 0, absent: 2 });
  });
});
