import { withdrawalEvents } from './feed-audit';

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
