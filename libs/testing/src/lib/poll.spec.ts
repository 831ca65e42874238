import { pollUntil } from './poll';

describe('pollUntil', () => {
  it('returns the first value that is accepted, asking again until then', async () => {
    let calls = 0;
    const value = await pollUntil(
      'the third call',
      async () => ++calls,
      (n) => n === 3,
      { intervalMs: 1 },
    );
    expect(value).toBe(3);
    expect(calls).toBe(3);
  });

  it('fails at the deadline naming what it waited for and the last value seen', async () => {
    await expect(
      pollUntil(
        'a miracle',
        async () => 'still nothing',
        () => false,
        { timeoutMs: 50, intervalMs: 5 },
      ),
    ).rejects.toThrow(/waiting for a miracle; last seen: "still nothing"/);
  });

  it('keeps polling through errors and reports the last one', async () => {
    await expect(
      pollUntil(
        'a healthy probe',
        async () => {
          throw new Error('connection refused');
        },
        () => true,
        { timeoutMs: 30, intervalMs: 5 },
      ),
    ).rejects.toThrow(/last seen: connection refused/);
  });
});
