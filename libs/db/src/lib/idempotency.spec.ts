import {
  IdempotentCommand,
  keyReused,
  KeyedAttempt,
  Refusal,
  RefusalMemory,
  Rejected,
  requestFingerprint,
  runIdempotent,
  Superseded,
} from './idempotency';

interface Stored {
  fingerprint: string;
  answer: string;
}

// Unit: the frame every keyed command shares. The services' claims themselves are proven against
// PostgreSQL in their integration specs (withdrawals, credits, Pix keys).
type Refused = 'user_not_found' | 'invalid_amount' | 'insufficient_funds';

function command(
  attempts: Array<() => Promise<KeyedAttempt<string, Stored>>>,
  more: Partial<IdempotentCommand<string, Stored, Refused>> = {},
) {
  let calls = 0;
  const spec: IdempotentCommand<string, Stored, Refused> = {
    refusalCodes: ['user_not_found', 'invalid_amount', 'insufficient_funds'],
    idempotencyKey: 'key-1',
    fingerprint: requestFingerprint(['create', '52998224725']),
    attempt: () => attempts[Math.min(calls++, attempts.length - 1)](),
    fingerprintOf: (stored) => stored.fingerprint,
    replay: (stored) => `replayed ${stored.answer}`,
    ...more,
  };
  return { spec, calls: () => calls };
}

describe('requestFingerprint', () => {
  it('is the SHA-256 of the JSON of the canonical form (what the services have stored)', () => {
    expect(requestFingerprint(['create', '52998224725'])).toBe('a69ea9ee8e8dbadaebae72724ae4a78f7c7cfa89c0b91c1785374cb737c1d9d8');
  });

  it('is the same for the same canonical form, and differs when a field or its position differs', () => {
    expect(requestFingerprint(['a', 1])).toBe(requestFingerprint(['a', 1]));
    expect(requestFingerprint(['a', 1])).not.toBe(requestFingerprint(['a', 2]));
    expect(requestFingerprint(['a', 'b'])).not.toBe(requestFingerprint(['b', 'a']));
    expect(requestFingerprint(['a', 1])).not.toBe(requestFingerprint(['a', '1']));
  });
});

describe('runIdempotent', () => {
  const fp = requestFingerprint(['create', '52998224725']);
  const other = requestFingerprint(['delete', '52998224725']);

  it('answers what a first attempt did', async () => {
    expect(await runIdempotent(command([async () => ({ done: 'created' })]).spec)).toEqual({ ok: true, data: 'created' });
  });

  it('replays a retry of the same request from the stored record', async () => {
    const reply = await runIdempotent(command([async () => ({ taken: { fingerprint: fp, answer: 'accepted' } })]).spec);
    expect(reply).toEqual({ ok: true, data: 'replayed accepted' });
  });

  it('refuses a key reused for another request, naming the request as the command says', async () => {
    const taken = async () => ({ taken: { fingerprint: other, answer: 'accepted' } });
    expect(await runIdempotent(command([taken]).spec)).toEqual({
      ok: false,
      error: {
        code: 'idempotency_key_reused',
        message: 'idempotency_key was already used with a different request',
        field: 'idempotency_key',
      },
    });
    expect(await runIdempotent(command([taken], { requestNoun: 'credit' }).spec)).toEqual(keyReused('credit'));
    expect(keyReused('credit')).toMatchObject({ error: { message: 'idempotency_key was already used with a different credit' } });
  });

  it('reads the committed record when the attempt could not see it, and fails loudly when there is none', async () => {
    const found = command([async () => ({ taken: null })], { find: async () => ({ fingerprint: fp, answer: 'accepted' }) });
    expect(await runIdempotent(found.spec)).toEqual({ ok: true, data: 'replayed accepted' });
    const reused = command([async () => ({ taken: null })], { find: async () => ({ fingerprint: other, answer: 'accepted' }) });
    expect(await runIdempotent(reused.spec)).toMatchObject({ ok: false, error: { code: 'idempotency_key_reused' } });

    await expect(runIdempotent(command([async () => ({ taken: null })], { find: async () => null }).spec)).rejects.toThrow(
      'idempotency key key-1 was taken, yet no record of it is committed',
    );
    await expect(runIdempotent(command([async () => ({ taken: null })]).spec)).rejects.toThrow('was taken, yet no record');
  });

  it('answers a Rejected attempt with its code, message and field (none when it has none)', async () => {
    const rejected = (error: Rejected) => command([() => Promise.reject(error)]).spec;
    expect(await runIdempotent(rejected(new Rejected('user_not_found', 'no user')))).toEqual({
      ok: false,
      error: { code: 'user_not_found', message: 'no user' },
    });
    expect(await runIdempotent(rejected(new Rejected('invalid_amount', 'too much', 'usdt_micros')))).toEqual({
      ok: false,
      error: { code: 'invalid_amount', message: 'too much', field: 'usdt_micros' },
    });
  });

  it("refuses to answer a code that is not one of the command's refusals: a bug surfaces, it is never sent", async () => {
    const kept: Refusal[] = [];
    const refusals: RefusalMemory = { recall: async () => null, keep: async (r) => void kept.push(r) };
    await expect(runIdempotent(command([() => Promise.reject(new Rejected('not_found', 'no key'))], { refusals }).spec)).rejects.toThrow(
      'not_found is not a refusal of this command (its refusals: user_not_found, invalid_amount, insufficient_funds)',
    );
    expect(kept).toEqual([]);
    const recalled: RefusalMemory = { recall: async () => ({ code: 'already_exists', message: 'exists' }), keep: async () => undefined };
    await expect(runIdempotent(command([async () => ({ done: 'created' })], { refusals: recalled }).spec)).rejects.toThrow(
      'already_exists is not a refusal',
    );
  });

  it("keeps a refusal in the command's memory, and answers a copy of the command from it without attempting", async () => {
    const kept: Refusal[] = [];
    const refusals: RefusalMemory = { recall: async () => kept[0] ?? null, keep: async (r) => void kept.push(r) };
    const first = command([() => Promise.reject(new Rejected('insufficient_funds', 'balance too low'))], { refusals });
    expect(await runIdempotent(first.spec)).toEqual({ ok: false, error: { code: 'insufficient_funds', message: 'balance too low' } });
    expect(kept).toEqual([{ code: 'insufficient_funds', message: 'balance too low', field: undefined }]);
    // The copy would succeed now: it is not attempted at all.
    const copy = command([async () => ({ done: 'created' })], { refusals });
    expect(await runIdempotent(copy.spec)).toEqual({ ok: false, error: { code: 'insufficient_funds', message: 'balance too low' } });
    expect(copy.calls()).toBe(0);
    expect(kept).toHaveLength(1);
  });

  it('attempts a Superseded command again, up to eight times in all', async () => {
    const superseded = () => Promise.reject(new Superseded());
    const recovers = command([superseded, superseded, async () => ({ done: 'decided again' })]);
    expect(await runIdempotent(recovers.spec)).toEqual({ ok: true, data: 'decided again' });
    expect(recovers.calls()).toBe(3);

    const never = command([superseded]);
    await expect(runIdempotent(never.spec)).rejects.toBeInstanceOf(Superseded);
    expect(never.calls()).toBe(8);
  });

  it('lets any other failure propagate, unanswered', async () => {
    await expect(runIdempotent(command([() => Promise.reject(new Error('database away'))]).spec)).rejects.toThrow('database away');
  });
});
