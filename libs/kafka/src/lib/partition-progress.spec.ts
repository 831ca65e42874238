import { PartitionProgress } from './partition-progress';

describe('PartitionProgress', () => {
  it('commits only up to the oldest message not finished, whatever order they finish in', () => {
    const p = new PartitionProgress();
    for (const offset of [10, 11, 12, 13]) p.start(offset);
    p.finish(12);
    p.finish(13);
    expect(p.takeCommit()).toBeUndefined(); // 10 and 11 still running: nothing may be committed
    p.finish(10);
    expect(p.takeCommit()).toBe(11); // Kafka's committed offset is the next message to read
    p.markCommitted(11);
    expect(p.takeCommit()).toBeUndefined();
    p.finish(11);
    expect(p.takeCommit()).toBe(14);
    expect(p.pending).toBe(0);
  });

  it('knows what it already dispatched, so a refetch after a rebalance does not run a message twice here', () => {
    const p = new PartitionProgress();
    p.start(5);
    p.start(6);
    expect([p.seen(4), p.seen(5), p.seen(6), p.seen(7)]).toEqual([true, true, true, false]);
  });

  it('keeps its memory bounded over a long run', () => {
    const p = new PartitionProgress();
    for (let offset = 0; offset < 100_000; offset++) {
      p.start(offset);
      p.finish(offset);
    }
    expect(p.takeCommit()).toBe(100_000);
    expect(p.pending).toBe(0);
    expect(p.retained).toBeLessThan(3000);
  });
});
