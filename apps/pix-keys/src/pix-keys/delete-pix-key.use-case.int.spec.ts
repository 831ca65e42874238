import { DeletePixKeyCommand, PixKeyState, PartnerId } from '@partner/contracts';
import { newCpf, newUuid, outboxStatesOf, selectRows, testPartnerId } from '@partner/testing';
import { NAMED, pixKeyCommands } from './pix-key-commands.spec-support';

// Integration: the real pix_keys schema in PostgreSQL (npm test migrates it). Each test uses a partner of
// its own; the DICT's moves are made here by hand (AdvancePixKeysUseCase has its own suite).
const { db, close, keysOf, keyRow, users, pixKeys, relay, unitOfWork, create, remove } = pixKeyCommands();

const command = (partnerId: PartnerId, document: string, idempotencyKey = newUuid()): DeletePixKeyCommand => ({
  partner_id: partnerId,
  document,
  idempotency_key: idempotencyKey,
});

/** A user of a new partner whose key has gone through `path` (from pending). */
async function userWithKey(...path: PixKeyState[]) {
  const partnerId = testPartnerId();
  const document = newCpf();
  await users.upsert(partnerId, document, NAMED);
  await create.execute({ partner_id: partnerId, document, idempotency_key: newUuid() });
  const [key] = await keysOf(partnerId);
  let from: PixKeyState = 'pending';
  for (const to of path) {
    await unitOfWork.run((tx) => pixKeys.transition(tx, partnerId, key.id, from, to));
    from = to;
  }
  return { partnerId, document, keyId: key.id };
}

const outboxStates = async (partnerId: string) =>
  outboxStatesOf(await selectRows<{ payload: unknown }>(db, 'SELECT payload FROM outbox_messages ORDER BY id'), partnerId);

const stateOf = async (keyId: string) => (await keyRow(keyId)).state;
/** A reply; `replayed` when it is the idempotency key's first answer again. */
const answer = (status: string, replayed = false) => ({ ok: true, data: { status, replayed } });

afterAll(close);

describe('DeletePixKeyUseCase (PostgreSQL)', () => {
  it('accepts the deletion of a registered key: deleting, with its event, in one go', async () => {
    const { partnerId, document, keyId } = await userWithKey('registered');
    expect(await remove.execute(command(partnerId, document))).toEqual(answer('accepted'));
    expect(await stateOf(keyId)).toBe('deleting');
    expect(await outboxStates(partnerId)).toEqual(['pending', 'deleting']);
  });

  it('wakes the outbox relay once for the move to deleting, not for a mark, a refusal or an answer that changes nothing', async () => {
    const registered = await userWithKey('registered');
    const pending = await userWithKey();
    const before = relay.wakes;
    await remove.execute(command(registered.partnerId, registered.document));
    expect(relay.wakes).toBe(before + 1);
    await remove.execute(command(registered.partnerId, registered.document));
    await remove.execute(command(pending.partnerId, pending.document));
    await remove.execute(command(registered.partnerId, newCpf()));
    expect(relay.wakes).toBe(before + 1);
  });

  it('answers already_sent while the deletion is in flight, without a second event', async () => {
    const { partnerId, document, keyId } = await userWithKey('registered');
    await remove.execute(command(partnerId, document));
    expect(await remove.execute(command(partnerId, document))).toEqual(answer('already_sent'));
    expect(await stateOf(keyId)).toBe('deleting');
    expect(await outboxStates(partnerId)).toEqual(['pending', 'deleting']);
  });

  it('answers succeeded once the key is canceled', async () => {
    const { partnerId, document } = await userWithKey('registered', 'deleting', 'canceled');
    expect(await remove.execute(command(partnerId, document))).toEqual(answer('succeeded'));
  });

  it('accepts the deletion of a key still pending: marked, deleted once registered; a second request is already_sent', async () => {
    const { partnerId, document, keyId } = await userWithKey();
    expect(await remove.execute(command(partnerId, document))).toEqual(answer('accepted'));
    const key = await keyRow(keyId);
    expect([key.state, key.deletion_requested_at]).toEqual(['pending', expect.any(Date)]);
    expect(await remove.execute(command(partnerId, document))).toEqual(answer('already_sent'));
    // Still an active key: no new one may be registered meanwhile.
    expect(await create.execute({ partner_id: partnerId, document, idempotency_key: newUuid() })).toMatchObject({
      ok: false,
      error: { code: 'already_exists' },
    });
  });

  it('answers not_found when the user never had a key, binding nothing', async () => {
    const partnerId = testPartnerId();
    const document = newCpf();
    await users.upsert(partnerId, document, NAMED);
    const first = command(partnerId, document);
    expect(await remove.execute(first)).toMatchObject({ ok: false, error: { code: 'not_found' } });
    // The refusal bound nothing: once there is a key, the same idempotency key deletes it.
    await create.execute({ partner_id: partnerId, document, idempotency_key: newUuid() });
    expect(await remove.execute(first)).toEqual(answer('accepted'));
  });

  it('answers not_found when the last registration failed: nothing was ever registered', async () => {
    const { partnerId, document } = await userWithKey('failed');
    expect(await remove.execute(command(partnerId, document))).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });

  it('scopes keys by partner: another partner finds no key for the same CPF', async () => {
    const { document, keyId } = await userWithKey('registered');
    const other = testPartnerId();
    expect(await remove.execute(command(other, document))).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect(await stateOf(keyId)).toBe('registered');
  });

  it('replays the first answer to the same request, and refuses the key for another request', async () => {
    const { partnerId, document, keyId } = await userWithKey('registered');
    const first = command(partnerId, document);
    expect(await remove.execute(first)).toEqual(answer('accepted'));
    await unitOfWork.run((tx) => pixKeys.transition(tx, partnerId, keyId, 'deleting', 'canceled'));
    // Now a new request would be told succeeded; the retry of the first one gets its own answer again.
    expect(await remove.execute({ ...first })).toEqual(answer('accepted', true));
    expect(await remove.execute(command(partnerId, document))).toEqual(answer('succeeded'));

    expect(await remove.execute({ ...first, document: newCpf() })).toMatchObject({ ok: false, error: { code: 'idempotency_key_reused' } });
    // A key used for a creation is not a deletion's.
    const createKey = newUuid();
    await create.execute({ partner_id: partnerId, document, idempotency_key: createKey });
    expect(await remove.execute(command(partnerId, document, createKey))).toMatchObject({
      ok: false,
      error: { code: 'idempotency_key_reused', field: 'idempotency_key' },
    });
  });

  it('of 20 parallel deletions, exactly one is accepted and the rest already_sent, with one event', async () => {
    const { partnerId, document, keyId } = await userWithKey('registered');
    const replies = await Promise.all(Array.from({ length: 20 }, () => remove.execute(command(partnerId, document))));
    const statuses = replies.map((r) => (r.ok ? r.data.status : r.error.code));
    expect(statuses.filter((s) => s === 'accepted')).toHaveLength(1);
    expect(statuses.filter((s) => s === 'already_sent')).toHaveLength(19);
    expect(await stateOf(keyId)).toBe('deleting');
    expect(await outboxStates(partnerId)).toEqual(['pending', 'deleting']);
  });
  it('refuses a copy of a refused deletion again, even once a key exists: a key made after a 404 is never deleted by it', async () => {
    const partnerId = testPartnerId();
    const document = newCpf();
    await users.upsert(partnerId, document, NAMED);
    const refused = command(partnerId, document);
    const commandId = `test-${newUuid()}`;
    expect(await remove.execute(refused, commandId)).toMatchObject({ ok: false, error: { code: 'not_found' } });
    await create.execute({ partner_id: partnerId, document, idempotency_key: newUuid() });
    const [key] = await keysOf(partnerId);
    await unitOfWork.run((tx) => pixKeys.transition(tx, partnerId, key.id, 'pending', 'registered'));
    // The copy of the deletion the partner was told found nothing: refused again, the new key untouched.
    expect(await remove.execute(refused, commandId)).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect(await stateOf(key.id)).toBe('registered');
    // A new request with the same idempotency key is attempted.
    expect(await remove.execute(refused, `test-${newUuid()}`)).toEqual(answer('accepted'));
    expect(await stateOf(key.id)).toBe('deleting');
  });
});
