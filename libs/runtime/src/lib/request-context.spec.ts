import { CONTEXT_HEADERS, contextFromHeaders, contextHeaders, RequestContexts, saneRequestId } from './request-context';

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('saneRequestId', () => {
  it.each(['abc-123', 'a', 'a'.repeat(128), '0f8c7e2a-5d1b-4c3e-9a7f-6b2d1e0c9f8a', '01HZX3J8Q2:trace.span_1'])('keeps %p', (id) => {
    expect(saneRequestId(id)).toBe(id);
  });

  it.each([
    ['empty', ''],
    ['too long', 'a'.repeat(129)],
    ['a space', 'abc 123'],
    ['a newline (a forged log line)', 'abc\n{"level":50}'],
    ['a quote', 'abc"'],
    ['a comma (two headers joined)', 'abc, def'],
    ['non-ASCII', 'pedido-ção'],
    ['a slash', 'a/b'],
  ])('refuses %s', (_label, id) => {
    expect(saneRequestId(id)).toBeUndefined();
  });

  it('refuses what is not a string (a repeated header, a missing one)', () => {
    expect(saneRequestId(['abc', 'def'])).toBeUndefined();
    expect(saneRequestId(undefined)).toBeUndefined();
    expect(saneRequestId(123)).toBeUndefined();
  });
});

describe('RequestContexts', () => {
  it('is the context of the run it is read in, across awaits and timers', async () => {
    expect(RequestContexts.current()).toBeUndefined();
    const seen = await RequestContexts.run({ requestId: 'r-1' }, async () => {
      await tick();
      const afterAwait = RequestContexts.current();
      const inTimer = await new Promise((resolve) => setTimeout(() => resolve(RequestContexts.current()), 1));
      return [afterAwait, inTimer];
    });
    expect(seen).toEqual([{ requestId: 'r-1' }, { requestId: 'r-1' }]);
    expect(RequestContexts.current()).toBeUndefined();
  });

  it('keeps concurrent requests apart', async () => {
    const read = (requestId: string) =>
      RequestContexts.run({ requestId }, async () => {
        await tick();
        await tick();
        return RequestContexts.current()?.requestId;
      });
    await expect(Promise.all(['a', 'b', 'c'].map(read))).resolves.toEqual(['a', 'b', 'c']);
  });

  it('sees a partner filled in later (the API key guard runs after the context is opened)', async () => {
    const context: { requestId: string; partnerId?: string } = { requestId: 'r-2' };
    const seen = await RequestContexts.run(context, async () => {
      await tick();
      context.partnerId = 'p-2';
      await tick();
      return RequestContexts.current();
    });
    expect(seen).toEqual({ requestId: 'r-2', partnerId: 'p-2' });
  });

  it('outside() leaves the request: a timer started there does not carry it', async () => {
    const seen = await RequestContexts.run(
      { requestId: 'r-3' },
      () => new Promise((resolve) => RequestContexts.outside(() => setTimeout(() => resolve(RequestContexts.current()), 1))),
    );
    expect(seen).toBeUndefined();
  });
});

describe('context headers', () => {
  it('carry the id and the partner, and read back as the same context', () => {
    const headers = contextHeaders(CONTEXT_HEADERS, { requestId: 'abc-123', partnerId: 'p-1' });
    expect(headers).toEqual({ request_id: 'abc-123', partner_id: 'p-1' });
    expect(contextFromHeaders(headers?.request_id, headers?.partner_id)).toEqual({ requestId: 'abc-123', partnerId: 'p-1' });
  });

  it('carry only the id while the partner is unknown, and nothing outside a request', () => {
    expect(contextHeaders(CONTEXT_HEADERS, { requestId: 'abc-123' })).toEqual({ request_id: 'abc-123' });
    expect(contextHeaders(CONTEXT_HEADERS)).toBeUndefined();
    expect(RequestContexts.run({ requestId: 'r-4' }, () => contextHeaders(CONTEXT_HEADERS))).toEqual({ request_id: 'r-4' });
  });

  it('are ignored when the id is missing or not sane; a partner that is not sane is dropped', () => {
    expect(contextFromHeaders(undefined, 'p-1')).toBeUndefined();
    expect(contextFromHeaders('bad id', 'p-1')).toBeUndefined();
    expect(contextFromHeaders('abc-123', 'bad partner')).toEqual({ requestId: 'abc-123' });
  });
});
