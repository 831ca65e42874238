import { PartnerId } from '@partner/contracts';
import { loadConfig } from '@partner/config';
import { newCpf, newUuid, testPartnerId } from '@partner/testing';
import { PixKeysConfig } from '../config/pix-keys.config';
import { AdvancePixKeysUseCase, DICT_REJECTED } from './advance-pix-keys.use-case';
import { pixKeyCommands } from '../pix-keys/pix-key-commands.spec-support';

// Integration: the real pix_keys schema in PostgreSQL (npm test migrates it). Each test uses a partner of its own.
const DELAY_MS = 5_000;
const FAILING = newCpf();
const config = loadConfig(PixKeysConfig, { ...process.env, PIX_DICT_DELAY_MS: String(DELAY_MS), PIX_DICT_FAIL_DOCUMENTS: FAILING });
const { prisma, close, users, pixKeys, relay, unitOfWork, create, remove } = pixKeyCommands(config);
const advance = new AdvancePixKeysUseCase(config, unitOfWork, pixKeys);

/** A moment when every move asked for so far is due. */
const later = () => new Date(Date.now() + DELAY_MS + 1_000);

async function userWithPendingKey(document = newCpf()) {
  const partnerId = testPartnerId();
  await users.upsert(partnerId, document);
  expect(await create.execute({ partner_id: partnerId, document, idempotency_key: newUuid() })).toMatchObject({ ok: true });
  const [key] = await prisma.pixKey.findMany({ where: { partnerId } });
  return { partnerId, document, keyId: key.id };
}

const deleteKey = (partnerId: PartnerId, document: string) =>
  remove.execute({ partner_id: partnerId, document, idempotency_key: newUuid() });

async function events(partnerId: string) {
  const rows = await prisma.outboxMessage.findMany({ orderBy: { id: 'asc' } });
  return rows
    .map(
      (r) =>
        r.payload as { partner_id: string; state: string; resource_id: string; resource: { state: string; failure_reason: string | null } },
    )
    .filter((p) => p.partner_id === partnerId);
}
const statesOf = async (partnerId: string) => (await events(partnerId)).map((e) => e.state);
const stateOf = async (keyId: string) => (await prisma.pixKey.findUniqueOrThrow({ where: { id: keyId } })).state;

afterAll(close);

describe('AdvancePixKeysUseCase: the simulated DICT (PostgreSQL)', () => {
  it('answers nothing before PIX_DICT_DELAY_MS has passed', async () => {
    const { keyId } = await userWithPendingKey();
    await advance.execute(new Date());
    expect(await stateOf(keyId)).toBe('pending');
  });

  it('registers a pending key, then cancels it after its deletion, one event per move', async () => {
    const { partnerId, document, keyId } = await userWithPendingKey();
    await advance.execute(later());
    expect(await stateOf(keyId)).toBe('registered');

    expect(await deleteKey(partnerId, document)).toEqual({ ok: true, data: { status: 'accepted', replayed: false } });
    await advance.execute(new Date());
    expect(await stateOf(keyId)).toBe('deleting');
    await advance.execute(later());
    expect(await stateOf(keyId)).toBe('canceled');

    const all = await events(partnerId);
    expect(all.map((e) => e.state)).toEqual(['pending', 'registered', 'deleting', 'canceled']);
    expect(all.every((e) => e.resource_id === keyId && e.resource.state === e.state)).toBe(true);
  });

  it('refuses the registration of a CPF of PIX_DICT_FAIL_DOCUMENTS: failed, with the reason', async () => {
    const { partnerId, keyId } = await userWithPendingKey(FAILING);
    await advance.execute(later());
    const key = await prisma.pixKey.findUniqueOrThrow({ where: { id: keyId } });
    expect([key.state, key.failureReason]).toEqual(['failed', DICT_REJECTED]);
    const all = await events(partnerId);
    expect(all.map((e) => e.state)).toEqual(['pending', 'failed']);
    expect(all[1].resource.failure_reason).toBe(DICT_REJECTED);
  });

  it('deletes a key whose deletion was asked for while pending, right after registering it', async () => {
    const { partnerId, document, keyId } = await userWithPendingKey();
    await deleteKey(partnerId, document);
    // Registration due now; the deletion it triggers then waits its own delay.
    await prisma.pixKey.update({ where: { id: keyId }, data: { updatedAt: new Date(Date.now() - DELAY_MS - 1_000) } });
    await advance.execute(new Date());
    expect(await stateOf(keyId)).toBe('deleting');
    await advance.execute(later());
    expect(await statesOf(partnerId)).toEqual(['pending', 'registered', 'deleting', 'canceled']);
    expect(await deleteKey(partnerId, document)).toEqual({ ok: true, data: { status: 'succeeded', replayed: false } });
  });

  it('lets a canceled key be registered again, as a new key', async () => {
    const { partnerId, document, keyId } = await userWithPendingKey();
    await advance.execute(later());
    await deleteKey(partnerId, document);
    await advance.execute(later());
    expect(await stateOf(keyId)).toBe('canceled');

    expect(await create.execute({ partner_id: partnerId, document, idempotency_key: newUuid() })).toEqual({
      ok: true,
      data: { status: 'accepted', replayed: false },
    });
    await advance.execute(later());
    const keys = await prisma.pixKey.findMany({ where: { partnerId }, orderBy: { createdAt: 'asc' } });
    expect(keys.map((k) => [k.id === keyId, k.state])).toEqual([
      [true, 'canceled'],
      [false, 'registered'],
    ]);
  });

  it('wakes the outbox relay after a round that moved keys, never after one that moved none', async () => {
    await userWithPendingKey();
    const before = relay.wakes;
    expect(await advance.execute(later())).toBeGreaterThan(0);
    expect(relay.wakes).toBeGreaterThan(before);
    const after = relay.wakes;
    // Nothing is due before 1970; the deletions due at once were made by the run above.
    expect(await advance.execute(new Date(0))).toBe(0);
    expect(relay.wakes).toBe(after);
  });

  it('makes each move once when several DICT workers run at the same time', async () => {
    const users = await Promise.all(Array.from({ length: 5 }, () => userWithPendingKey()));
    const at = later();
    await Promise.all([advance.execute(at), advance.execute(at), advance.execute(at)]);
    for (const { partnerId } of users) expect(await statesOf(partnerId)).toEqual(['pending', 'registered']);
  });
});
