import { ConsumerGroups } from './consumer-groups';

describe('ConsumerGroups', () => {
  it('is ready once every consumer is in its group, not before any started, not while one is out', () => {
    const groups = new ConsumerGroups();
    expect(groups.ready()).toBe(false);
    groups.report('withdrawals', true, 'joined');
    groups.report('withdrawals-events', false, 'rebalancing');
    expect(groups.ready()).toBe(false);
    groups.report('withdrawals-events', true, 'joined');
    expect(groups.ready()).toBe(true);
  });

  it('a process that consumes nothing (a worker) is ready without any group, and says why', () => {
    const groups = new ConsumerGroups();
    groups.none('PAYOUTS_ONLY');
    expect(groups.ready()).toBe(true);
    expect(groups.noConsumers()).toBe('PAYOUTS_ONLY');
    expect(groups.snapshot()).toEqual({});
  });
});
