import { CreatePixKeyCommand, PixKeyState, PartnerId } from '@partner/contracts';
import { newCpf, newUuid, outboxStatesOf, selectRows, testPartnerId } from '@partner/testing';
import { fingerprintOf } from './idempotency';
import { NAMED, pixKeyCommands } from './pix-key-commands.spec-support';

// Integration: the real pix_keys schema in PostgreSQL (npm test migrates it). Each test uses a partner of its own.
const { db, close, keysOf, users, pixKeys, relay, unitOfWork, create } = pixKeyCommands();

async function newUser() {
  const partnerId = testPartnerId();
  const document = newCpf();
  await users.upsert(partnerId, document, NAMED);
  return { partnerId, document };
}

const command = (partnerId: PartnerId, document: string, idempotencyKey = newUuid()): CreatePixKeyCommand => ({
  partner_id: partnerId,
  document,
  idempotency_key: idempotencyKey,
});

const outboxStates = async (partnerId: string) =>
  outboxStatesOf(await selectRows<{ payload: unknown }>(db, 'SELECT payload FROM outbox_messages ORDER BY id'), partnerId);

/** Ends the user's pending key as the DICT would (refused, or registered then deleted), so that a new one may be asked for. */
async function endKey(partnerId: PartnerId, to: 'failed' | 'canceled') {
  const [key] = await keysOf(partnerId);
  const path: PixKeyState[] = to === 'failed' ? ['pending', 'failed'] : ['pending', 'registered', 'deleting', 'canceled'];
  for (let i = 1; i < path.length; i++) {
    await unitOfWork.run((tx) => pixKeys.transition(tx, partnerId, key.id, path[i - 1], path[i]));
  }
}

afterAll(close);

describe('CreatePixKeyUseCase (PostgreSQL)', () => {
  it('accepts: inserts the CPF key pending and writes its pending event in one go', async () => {
    const { partnerId, document } = await newUser();
    expect(await create.execute(command(partnerId, document))).toEqual({ ok: true, data: { status: 'accepted', replayed: false } });
    const keys = await keysOf(partnerId);
    expect(keys).toEqual([expect.objectContaining({ document, key: document, state: 'pending', failure_reason: null })]);
    const [event] = (
      await selectRows<{ payload: unknown }>(db, 'SELECT payload FROM outbox_messages WHERE key = $1 ORDER BY id', [
        `pix_key:${partnerId}:${document}`,
      ])
    ).map((r) => r.payload);
    expect(event).toMatchObject({
      partner_id: partnerId,
      type: 'pix_key',
      state: 'pending',
      resource_id: keys[0].id,
      resource: { id: keys[0].id, key: document, key_type: 'cpf', document, state: 'pending', failure_reason: null },
    });
  });

  it('accepts an EVP key: pending with no value yet (DICT generates it), its event saying so; the idempotency key binds the type', async () => {
    const { partnerId, document } = await newUser();
    const first = { ...command(partnerId, document), key_type: 'evp' as const };
    expect(await create.execute(first)).toEqual({ ok: true, data: { status: 'accepted', replayed: false } });
    const keys = await keysOf(partnerId);
    expect(keys).toEqual([expect.objectContaining({ document, key: null, key_type: 'evp', state: 'pending' })]);
    const [event] = (
      await selectRows<{ payload: unknown }>(db, 'SELECT payload FROM outbox_messages WHERE key = $1 ORDER BY id', [
        `pix_key:${partnerId}:${document}`,
      ])
    ).map((r) => r.payload);
    expect(event).toMatchObject({ resource: { id: keys[0].id, key: null, key_type: 'evp', document, state: 'pending' } });
    expect(await create.execute(first)).toEqual({ ok: true, data: { status: 'accepted', replayed: true } });
    // The same idempotency key for a CPF key is another request.
    expect(await create.execute({ ...first, key_type: 'cpf' })).toMatchObject({ ok: false, error: { code: 'idempotency_key_reused' } });
    // One key per user, whatever its type.
    expect(await create.execute(command(partnerId, document))).toMatchObject({ ok: false, error: { code: 'already_exists' } });
  });

  it('wakes the outbox relay once per accepted key, never for a refusal or a replay', async () => {
    const { partnerId, document } = await newUser();
    const first = command(partnerId, document);
    const before = relay.wakes;
    await create.execute(first);
    expect(relay.wakes).toBe(before + 1);
    await create.execute({ ...first });
    await create.execute(command(partnerId, document));
    await create.execute(command(partnerId, newCpf()));
    expect(relay.wakes).toBe(before + 1);
  });

  it('refuses an unknown user, writes nothing and leaves the idempotency key free', async () => {
    const partnerId = testPartnerId();
    const document = newCpf();
    const first = command(partnerId, document);
    expect(await create.execute(first)).toMatchObject({ ok: false, error: { code: 'user_not_found' } });
    expect(await keysOf(partnerId)).toEqual([]);
    expect(await outboxStates(partnerId)).toEqual([]);

    await users.upsert(partnerId, document, NAMED);
    expect(await create.execute(first)).toEqual({ ok: true, data: { status: 'accepted', replayed: false } });
  });

  it('scopes users by partner: another partner cannot register a key for this user', async () => {
    const { document } = await newUser();
    const other = testPartnerId();
    expect(await create.execute(command(other, document))).toMatchObject({ ok: false, error: { code: 'user_not_found' } });
    expect(await keysOf(other)).toEqual([]);
  });

  it('refuses a second key while the first is pending and once it is registered (already_exists)', async () => {
    const { partnerId, document } = await newUser();
    await create.execute(command(partnerId, document));
    expect(await create.execute(command(partnerId, document))).toMatchObject({ ok: false, error: { code: 'already_exists' } });

    const [key] = await keysOf(partnerId);
    await unitOfWork.run((tx) => pixKeys.transition(tx, partnerId, key.id, 'pending', 'registered'));
    expect(await create.execute(command(partnerId, document))).toMatchObject({ ok: false, error: { code: 'already_exists' } });
    expect(await keysOf(partnerId)).toHaveLength(1);
    expect(await outboxStates(partnerId)).toEqual(['pending']);
  });

  it('replays a key with the same request (the first answer, nothing new) and refuses it for another request', async () => {
    const { partnerId, document } = await newUser();
    const first = command(partnerId, document);
    await create.execute(first);
    expect(await create.execute({ ...first })).toEqual({ ok: true, data: { status: 'accepted', replayed: true } });

    const otherUser = newCpf();
    await users.upsert(partnerId, otherUser, NAMED);
    expect(await create.execute({ ...first, document: otherUser })).toEqual({
      ok: false,
      error: { code: 'idempotency_key_reused', message: expect.any(String), field: 'idempotency_key' },
    });
    expect(await keysOf(partnerId)).toHaveLength(1);
    expect(await outboxStates(partnerId)).toEqual(['pending']);
  });

  it('makes exactly one key of 20 parallel creations with different idempotency keys', async () => {
    const { partnerId, document } = await newUser();
    const replies = await Promise.all(Array.from({ length: 20 }, () => create.execute(command(partnerId, document))));
    expect(replies.filter((r) => r.ok)).toHaveLength(1);
    expect(replies.filter((r) => !r.ok).map((r) => !r.ok && r.error.code)).toEqual(Array(19).fill('already_exists'));
    expect(await keysOf(partnerId)).toHaveLength(1);
    expect(await outboxStates(partnerId)).toEqual(['pending']);
  });

  it('turns 20 parallel duplicates of one request into one key, each answered accepted', async () => {
    const { partnerId, document } = await newUser();
    const same = command(partnerId, document);
    const replies = await Promise.all(Array.from({ length: 20 }, () => create.execute({ ...same })));
    expect(replies.map((r) => r.ok && r.data.status)).toEqual(Array(20).fill('accepted'));
    // One of them made the key; the 19 others replayed its answer.
    expect(replies.filter((r) => r.ok && !r.data.replayed)).toHaveLength(1);
    expect(await keysOf(partnerId)).toHaveLength(1);
    expect(await outboxStates(partnerId)).toEqual(['pending']);
  });

  it.each(['failed', 'canceled'] as const)('registers a new key once the last one ended %s', async (ended) => {
    const { partnerId, document } = await newUser();
    await create.execute(command(partnerId, document));
    await endKey(partnerId, ended);
    expect(await create.execute(command(partnerId, document))).toEqual({ ok: true, data: { status: 'accepted', replayed: false } });
    const states = (await keysOf(partnerId)).map((k) => k.state).sort();
    expect(states).toEqual([ended, 'pending'].sort());
  });

  it('fingerprints the operation, the document and the name when given', () => {
    const document = newCpf();
    expect(fingerprintOf('create', document)).toBe(fingerprintOf('create', document));
    expect(fingerprintOf('create', document)).not.toBe(fingerprintOf('delete', document));
    expect(fingerprintOf('create', document)).not.toBe(fingerprintOf('create', newCpf()));
    expect(fingerprintOf('create', document, 'Ana')).not.toBe(fingerprintOf('create', document));
    expect(fingerprintOf('create', document, 'Ana')).not.toBe(fingerprintOf('create', document, 'Bia'));
    // A CPF key's request keeps the fingerprint it had before key_type existed; an EVP key's is another.
    expect(fingerprintOf('create', document, undefined, 'cpf')).toBe(fingerprintOf('create', document));
    expect(fingerprintOf('create', document, undefined, 'evp')).not.toBe(fingerprintOf('create', document));
    expect(fingerprintOf('create', document, undefined, 'cpf', true)).not.toBe(fingerprintOf('create', document));
    expect(fingerprintOf('create', document, undefined, 'cpf', false)).toBe(fingerprintOf('create', document));
  });

  const holderOf = async (partnerId: PartnerId, document: string) =>
    (
      await selectRows<{ name: string | null }>(db, 'SELECT name FROM users WHERE partner_id = $1 AND document = $2', [partnerId, document])
    )[0]?.name;
  const claimsOf = (partnerId: PartnerId) =>
    selectRows<{ idempotency_key: string }>(db, 'SELECT idempotency_key FROM idempotency_records WHERE partner_id = $1', [partnerId]);

  it.each([
    ['holder_name_missing', 'no name on file', {}],
    ['holder_name_invalid', 'a name on file DICT does not take', { name: 'Maria Souza 2ª' }],
  ])('refuses a key at request time with %s (%s): no key, no event, the idempotency key left free', async (code, _label, holder) => {
    const partnerId = testPartnerId();
    const document = newCpf();
    await users.upsert(partnerId, document, holder);
    const first = command(partnerId, document);
    expect(await create.execute(first)).toEqual({ ok: false, error: { code, message: expect.any(String), field: 'name' } });
    expect(await keysOf(partnerId)).toEqual([]);
    expect(await outboxStates(partnerId)).toEqual([]);
    expect(await claimsOf(partnerId)).toEqual([]);
    // The same idempotency key, now with the name: accepted.
    expect(await create.execute({ ...first, name: 'Maria Souza' })).toEqual({ ok: true, data: { status: 'accepted', replayed: false } });
  });

  it("takes the name the request gives: the key's holder name, and the user's from then on", async () => {
    const partnerId = testPartnerId();
    const document = newCpf();
    await users.upsert(partnerId, document);
    expect(await create.execute({ ...command(partnerId, document), name: "Joana D'Arc Prado-Araújo" })).toMatchObject({ ok: true });
    const [key] = await keysOf(partnerId);
    expect(key.holder_name).toBe("Joana D'Arc Prado-Araújo");
    expect(await holderOf(partnerId, document)).toBe("Joana D'Arc Prado-Araújo");

    // Corrects a name on file, too; a refused request (already_exists) changes nothing.
    expect(await create.execute({ ...command(partnerId, document), name: 'Outra Pessoa' })).toMatchObject({
      ok: false,
      error: { code: 'already_exists' },
    });
    expect(await holderOf(partnerId, document)).toBe("Joana D'Arc Prado-Araújo");
    await endKey(partnerId, 'canceled');
    expect(await create.execute({ ...command(partnerId, document), name: 'Joana Prado' })).toMatchObject({ ok: true });
    expect(await holderOf(partnerId, document)).toBe('Joana Prado');
    expect((await keysOf(partnerId)).map((k) => k.holder_name)).toEqual(["Joana D'Arc Prado-Araújo", 'Joana Prado']);
  });

  it('binds the name to the idempotency key: a replay with it is the first answer, another name is idempotency_key_reused', async () => {
    const partnerId = testPartnerId();
    const document = newCpf();
    await users.upsert(partnerId, document);
    const first = { ...command(partnerId, document), name: 'Maria Souza' };
    await create.execute(first);
    expect(await create.execute({ ...first })).toEqual({ ok: true, data: { status: 'accepted', replayed: true } });
    for (const other of [
      { ...first, name: 'Ana Souza' },
      { ...first, name: undefined },
    ]) {
      expect(await create.execute(other)).toMatchObject({ ok: false, error: { code: 'idempotency_key_reused' } });
    }
    expect(await holderOf(partnerId, document)).toBe('Maria Souza');
  });
  it('refuses a copy of a refused command again, even once its cause is gone; a new request with the same key is attempted', async () => {
    // A redelivery after a crash, or a retried send, hands the service the same command (same id) twice.
    const { partnerId, document } = await newUser();
    await create.execute(command(partnerId, document));
    const refused = command(partnerId, document);
    const commandId = `test-${newUuid()}`;
    expect(await create.execute(refused, commandId)).toMatchObject({ ok: false, error: { code: 'already_exists' } });
    await endKey(partnerId, 'canceled');
    // The copy: its caller was told "already exists", so it is refused again and no key is made.
    expect(await create.execute(refused, commandId)).toMatchObject({
      ok: false,
      error: { code: 'already_exists', message: expect.stringContaining('already has a Pix key') },
    });
    expect((await keysOf(partnerId)).map((k) => k.state)).toEqual(['canceled']);
    // The partner's own retry is a new command: the key was left free by the refusal.
    expect(await create.execute(refused, `test-${newUuid()}`)).toEqual({ ok: true, data: { status: 'accepted', replayed: false } });
    // Another partner cannot read the refusal kept under this command id.
    const other = await newUser();
    expect(await create.execute(command(other.partnerId, other.document), commandId)).toEqual({
      ok: true,
      data: { status: 'accepted', replayed: false },
    });
  });
});
