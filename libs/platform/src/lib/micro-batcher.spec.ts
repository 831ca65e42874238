import { MicroBatcher } from './micro-batcher';

/** A flush that records each batch it gets and answers `item * 10`, released by hand when `gate` is set. */
function recordingFlush(options: { gate?: boolean; failWhen?: (items: number[]) => boolean } = {}) {
  const batches: number[][] = [];
  const releases: Array<() => void> = [];
  const flush = async (items: number[]) => {
    batches.push([...items]);
    if (options.gate) await new Promise<void>((release) => releases.push(release));
    if (options.failWhen?.(items)) throw new Error(`batch ${items.join(',')} failed`);
    return items.map((i) => i * 10);
  };
  const releaseNext = () => releases.shift()?.();
  return { flush, batches, releaseNext };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('MicroBatcher', () => {
  it('sends the calls made in the same turn as one batch and answers each caller its own result', async () => {
    const { flush, batches } = recordingFlush();
    const batcher = new MicroBatcher(flush, { maxBatchSize: 10 });

    const results = await Promise.all([1, 2, 3].map((i) => batcher.submit(i)));

    expect(results).toEqual([10, 20, 30]);
    expect(batches).toEqual([[1, 2, 3]]);
  });

  it('collects the calls arriving while a flush runs into the next batch, one flush at a time, in arrival order', async () => {
    const { flush, batches, releaseNext } = recordingFlush({ gate: true });
    const batcher = new MicroBatcher(flush, { maxBatchSize: 10 });

    const first = batcher.submit(1);
    await turn();
    expect(batches).toEqual([[1]]);
    const later = [2, 3, 4].map((i) => batcher.submit(i));
    await turn();
    expect(batches).toEqual([[1]]); // still the one flush
    expect(batcher.waiting).toBe(3);

    releaseNext();
    expect(await first).toBe(10);
    await turn();
    expect(batches).toEqual([[1], [2, 3, 4]]);
    releaseNext();
    expect(await Promise.all(later)).toEqual([20, 30, 40]);
  });

  it('never puts more than maxBatchSize items in a flush', async () => {
    const { flush, batches } = recordingFlush();
    const batcher = new MicroBatcher(flush, { maxBatchSize: 2 });

    expect(await Promise.all([1, 2, 3, 4, 5].map((i) => batcher.submit(i)))).toEqual([10, 20, 30, 40, 50]);

    expect(batches).toEqual([[1, 2], [3, 4], [5]]);
  });

  it('runs up to `concurrency` flushes at once', async () => {
    const { flush, batches, releaseNext } = recordingFlush({ gate: true });
    const batcher = new MicroBatcher(flush, { maxBatchSize: 2, concurrency: 2 });

    const all = Promise.all([1, 2, 3, 4, 5].map((i) => batcher.submit(i)));
    await turn();
    expect(batches).toEqual([
      [1, 2],
      [3, 4],
    ]);
    releaseNext();
    await turn();
    expect(batches).toEqual([[1, 2], [3, 4], [5]]);
    releaseNext();
    releaseNext();
    expect(await all).toEqual([10, 20, 30, 40, 50]);
  });

  it('on a failed batch retries each item alone once: only the item that fails alone is rejected', async () => {
    const { flush, batches } = recordingFlush({ failWhen: (items) => items.includes(2) });
    const errors: Array<[string, number]> = [];
    const batcher = new MicroBatcher(flush, { maxBatchSize: 10, onBatchError: (e, size) => errors.push([(e as Error).message, size]) });

    const settled = await Promise.allSettled([1, 2, 3].map((i) => batcher.submit(i)));

    expect(settled).toEqual([
      { status: 'fulfilled', value: 10 },
      { status: 'rejected', reason: new Error('batch 2 failed') },
      { status: 'fulfilled', value: 30 },
    ]);
    expect(batches).toEqual([[1, 2, 3], [1], [2], [3]]);
    expect(errors).toEqual([['batch 1,2,3 failed', 3]]);
  });

  it('rejects a lone item without retrying it, and keeps serving later calls', async () => {
    let fail = true;
    const calls: number[][] = [];
    const batcher = new MicroBatcher(
      async (items: number[]) => {
        calls.push(items);
        if (fail) throw new Error('database down');
        return items;
      },
      { maxBatchSize: 10 },
    );

    await expect(batcher.submit(1)).rejects.toThrow('database down');
    fail = false;
    expect(await batcher.submit(2)).toBe(2);
    expect(calls).toEqual([[1], [2]]);
  });

  it('rejects every item when the flush answers the wrong number of results', async () => {
    const batcher = new MicroBatcher(async (items: number[]) => items.slice(1), { maxBatchSize: 10 });

    const settled = await Promise.allSettled([1, 2].map((i) => batcher.submit(i)));

    expect(settled.map((s) => s.status)).toEqual(['rejected', 'rejected']);
  });

  it('whenIdle waits for the queued and running flushes', async () => {
    const { flush, releaseNext } = recordingFlush({ gate: true });
    const batcher = new MicroBatcher(flush, { maxBatchSize: 1 });
    let idle = false;

    void batcher.submit(1);
    void batcher.submit(2);
    const waiting = batcher.whenIdle().then(() => (idle = true));
    await turn();
    releaseNext();
    await turn();
    expect(idle).toBe(false);
    releaseNext();
    await waiting;
    expect(idle).toBe(true);
    await expect(batcher.whenIdle()).resolves.toBeUndefined();
  });

  it('refuses a maxBatchSize or concurrency below 1', () => {
    expect(() => new MicroBatcher(async (i: number[]) => i, { maxBatchSize: 0 })).toThrow(RangeError);
    expect(() => new MicroBatcher(async (i: number[]) => i, { maxBatchSize: 1, concurrency: 0 })).toThrow(RangeError);
  });
});
