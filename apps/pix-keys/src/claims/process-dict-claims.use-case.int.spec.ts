import { PartnerId } from '@partner/contracts';
import { newCpf, newUuid, pollUntil, selectRows, testPartnerId } from '@partner/testing';
import {
  portabilityOf,
  RESOLUTION_PERIOD_MS,
  StackDict,
  startStackDict,
  STACK_OPERATOR_ISPB,
  TEST_DICT_TIMINGS,
} from '@partner/dict-test-server';
import { pixKeyCommands, specConfig } from '../pix-keys/pix-key-commands.spec-support';
import { BacenDictDirectory } from '../dict/bacen-dict-directory';
import { loadDictCredentials } from '../dict/dict-credentials';
import { DictMetrics } from '../dict/dict-metrics';
import { ProcessDictQueueUseCase } from '../dict/process-dict-queue.use-case';
import { DecidePixKeyClaimUseCase } from './decide-pix-key-claim.use-case';
import { PixKeyClaimRepository } from './pix-key-claim.repository';
import { ProcessDictClaimsUseCase } from './process-dict-claims.use-case';

// Integration: claims of the partners' keys, this operator the donor (apps/pix-keys/src/claims/), on the real pix_keys
// schema in PostgreSQL and a DICT test server of this spec's own, in which the spec plays the claimer (another
// participant) and moves the clock past the resolution period. No broker: the events are read from the outbox.

const CLAIMER = '00000001';
const HOLDER = {
  name: 'Maria Souza',
  account: {
    ispb: STACK_OPERATOR_ISPB,
    branch: '0001',
    number: '12345678',
    type: 'TRAN' as const,
    openedAt: new Date('2026-11-01T03:00:00Z'),
  },
};

let dict: StackDict;
let commands: ReturnType<typeof pixKeyCommands>;
let directory: BacenDictDirectory;
let queue: ProcessDictQueueUseCase;
let worker: ProcessDictClaimsUseCase;
let decide: DecidePixKeyClaimUseCase;

beforeAll(async () => {
  dict = await startStackDict({ name: 'spec', port: 0, timings: TEST_DICT_TIMINGS });
  const config = specConfig({ ...dict.env, DICT_RETRY_BASE_MS: '10', DICT_RETRY_MAX_MS: '20' });
  commands = pixKeyCommands(config);
  const metrics = new DictMetrics();
  directory = new BacenDictDirectory(config, loadDictCredentials(config), metrics);
  const claims = new PixKeyClaimRepository(commands.db);
  queue = new ProcessDictQueueUseCase(config, commands.unitOfWork, commands.pixKeys, directory, metrics, claims);
  worker = new ProcessDictClaimsUseCase(config, commands.unitOfWork, claims, commands.pixKeys, directory);
  decide = new DecidePixKeyClaimUseCase(commands.unitOfWork, claims);
});

afterAll(async () => {
  await directory?.onModuleDestroy();
  await commands?.close();
  await dict?.server.close();
});

/** A worker run with the listing's turn now and from the start (specs move DICT's clock, and with it LastModified). */
async function run(now = new Date()) {
  await commands.db.query(`UPDATE dict_claim_polls SET next_poll_at = '-infinity', modified_after = NULL`);
  await worker.execute(now);
}

/** A partner's registered CPF key, and another participant's portability claim of it. */
async function claimedKey() {
  const partnerId = testPartnerId();
  const document = newCpf();
  await commands.users.upsert(partnerId, document, HOLDER);
  expect(await commands.create.execute({ partner_id: partnerId, document, idempotency_key: newUuid() })).toMatchObject({ ok: true });
  await queue.execute();
  const [key] = await commands.keysOf(partnerId);
  expect(key.state).toBe('registered');
  const claim = dict.server.as(CLAIMER).createClaim(portabilityOf(document, CLAIMER));
  return { partnerId, document, keyId: key.id, claimId: claim.id };
}

type Event = {
  state: string;
  resource_id: string;
  resource: { state: string; claim?: { id: string; status: string; decided_by: string | null } };
};
async function events(partnerId: PartnerId): Promise<Event[]> {
  const rows = await selectRows<{ payload: Event & { partner_id: string } }>(
    commands.db,
    'SELECT payload FROM outbox_messages ORDER BY id',
  );
  return rows.map((r) => r.payload).filter((p) => p.partner_id === partnerId);
}
const claimEvents = async (partnerId: PartnerId) =>
  (await events(partnerId)).filter((e) => e.resource.claim).map((e) => [e.state, e.resource.claim?.status, e.resource.claim?.decided_by]);
const claimRow = async (id: string) =>
  (
    await selectRows<{ status: string; dict_action: string | null; dict_last_error: string | null }>(
      commands.db,
      'SELECT * FROM claims WHERE id = $1',
      [id],
    )
  )[0];
const confirm = (partnerId: PartnerId, document: string, claimId: string, reason?: 'user_requested' | 'account_closure') =>
  decide.execute({ action: 'confirm', command: { partner_id: partnerId, document, claim_id: claimId, ...(reason ? { reason } : {}) } });
const cancel = (partnerId: PartnerId, document: string, claimId: string, reason: 'user_requested' | 'fraud') =>
  decide.execute({ action: 'cancel', command: { partner_id: partnerId, document, claim_id: claimId, reason } });

describe('ProcessDictClaimsUseCase: claims of the partners’ keys, this operator the donor (PostgreSQL, DICT test server)', () => {
  it('records a claim DICT lists, acknowledges it and tells the partner once (claim_received, with the claim’s id)', async () => {
    const { partnerId, keyId, claimId } = await claimedKey();
    await run();
    expect(dict.server.claims.get(claimId)?.status).toBe('WAITING_RESOLUTION');
    expect(await claimRow(claimId)).toMatchObject({ status: 'waiting_resolution', dict_action: null });
    await run();
    const received = (await events(partnerId)).filter((e) => e.state === 'claim_received');
    expect(received).toEqual([
      expect.objectContaining({
        resource_id: keyId,
        resource: expect.objectContaining({ state: 'registered', claim: expect.objectContaining({ id: claimId }) }),
      }),
    ]);
  });

  it('confirms at the partner’s word: DICT removes the entry, the key ends canceled with claim_confirmed; the claimer completes', async () => {
    const { partnerId, document, keyId, claimId } = await claimedKey();
    await run();
    expect(await confirm(partnerId, document, claimId)).toEqual({ ok: true, data: { status: 'accepted' } });
    expect(await confirm(partnerId, document, claimId)).toEqual({ ok: true, data: { status: 'already_sent' } });
    expect(await cancel(partnerId, document, claimId, 'fraud')).toMatchObject({ ok: false, error: { code: 'claim_not_pending' } });
    await run();
    expect(dict.server.claims.get(claimId)).toMatchObject({ status: 'CONFIRMED', confirmReason: 'USER_REQUESTED' });
    expect(dict.server.entries.has(document)).toBe(false);
    expect((await commands.keyRow(keyId)).state).toBe('canceled');
    expect(await confirm(partnerId, document, claimId)).toEqual({ ok: true, data: { status: 'already_sent' } });
    dict.server.as(CLAIMER).completeClaim(claimId, newUuid());
    await run();
    expect(await claimEvents(partnerId)).toEqual([
      ['claim_received', 'waiting_resolution', null],
      ['claim_confirmed', 'confirmed', 'partner'],
      ['claim_completed', 'completed', 'partner'],
    ]);
    expect((await events(partnerId)).filter((e) => !e.resource.claim).map((e) => e.state)).toEqual(['pending', 'registered', 'canceled']);
  });

  it('cancels at the partner’s word with its reason: the key stays registered, claim_canceled', async () => {
    const { partnerId, document, keyId, claimId } = await claimedKey();
    await run();
    expect(await cancel(partnerId, document, claimId, 'fraud')).toEqual({ ok: true, data: { status: 'accepted' } });
    await run();
    expect(dict.server.claims.get(claimId)).toMatchObject({ status: 'CANCELLED', cancelReason: 'FRAUD', cancelledBy: 'DONOR' });
    expect((await commands.keyRow(keyId)).state).toBe('registered');
    expect(dict.server.entries.get(document)?.participant).toBe(STACK_OPERATOR_ISPB);
    expect(await claimEvents(partnerId)).toEqual([
      ['claim_received', 'waiting_resolution', null],
      ['claim_canceled', 'cancelled', 'partner'],
    ]);
  });

  it('reports a claim the claimer cancels, and refuses a decision on it; an unknown or another partner’s claim is claim_not_found', async () => {
    const { partnerId, document, claimId } = await claimedKey();
    await run();
    dict.server.as(CLAIMER).cancelClaim(claimId, 'USER_REQUESTED');
    await run();
    expect(await claimEvents(partnerId)).toEqual([
      ['claim_received', 'waiting_resolution', null],
      ['claim_canceled', 'cancelled', null],
    ]);
    expect(await confirm(partnerId, document, claimId)).toMatchObject({ ok: false, error: { code: 'claim_not_pending' } });
    expect(await confirm(partnerId, document, newUuid())).toMatchObject({ ok: false, error: { code: 'claim_not_found' } });
    expect(await confirm(testPartnerId(), document, claimId)).toMatchObject({ ok: false, error: { code: 'claim_not_found' } });
    expect(await confirm(partnerId, newCpf(), claimId)).toMatchObject({ ok: false, error: { code: 'claim_not_found' } });
  });

  it('acknowledges again after DICT did not answer, with the failure kept for operators meanwhile', async () => {
    const { partnerId, claimId } = await claimedKey();
    dict.server.injectFault({ operationId: 'acknowledgeClaim', kind: 'unavailable', times: 1 });
    await run();
    expect(await claimRow(claimId)).toMatchObject({
      status: 'open',
      dict_action: 'acknowledge',
      dict_last_error: expect.stringContaining('503'),
    });
    expect(await claimEvents(partnerId)).toEqual([]);
    // Retried once its backoff is over: rounds until then leave it as it is.
    const acknowledged = await pollUntil(
      'the claim acknowledged on a later round',
      async () => {
        await run();
        return claimRow(claimId);
      },
      (row) => row.status === 'waiting_resolution',
      { timeoutMs: 5_000, intervalMs: 20 },
    );
    expect(acknowledged).toMatchObject({ status: 'waiting_resolution', dict_action: null, dict_last_error: null });
    expect(await claimEvents(partnerId)).toEqual([['claim_received', 'waiting_resolution', null]]);
  });

  it('cancels a portability nobody answered once its resolution period is over (DEFAULT_OPERATION): the key stays', async () => {
    const { partnerId, document, keyId, claimId } = await claimedKey();
    await run();
    // Not before the period's end.
    await run(new Date(Date.now() + RESOLUTION_PERIOD_MS - 60_000));
    expect(await claimRow(claimId)).toMatchObject({ status: 'waiting_resolution', dict_action: null });
    dict.server.advanceClock(RESOLUTION_PERIOD_MS);
    try {
      await run(new Date(Date.now() + RESOLUTION_PERIOD_MS));
    } finally {
      dict.server.advanceClock(-RESOLUTION_PERIOD_MS);
    }
    expect(dict.server.claims.get(claimId)).toMatchObject({ status: 'CANCELLED', cancelReason: 'DEFAULT_OPERATION', cancelledBy: 'DONOR' });
    expect((await commands.keyRow(keyId)).state).toBe('registered');
    expect(await claimEvents(partnerId)).toEqual([
      ['claim_received', 'waiting_resolution', null],
      ['claim_canceled', 'cancelled', 'default'],
    ]);
    expect(await confirm(partnerId, document, claimId)).toMatchObject({ ok: false, error: { code: 'claim_not_pending' } });
  });
});

describe('ProcessDictClaimsUseCase: portability of a CPF held elsewhere, this operator the claimer (PostgreSQL, DICT test server)', () => {
  const DONOR = '00000002';

  /** A partner's key of a CPF DICT holds at DONOR for the same person, asked for with `portability`, sent to DICT once. */
  async function claimingKey(portability = true) {
    const partnerId = testPartnerId();
    const document = newCpf();
    dict.server.holdElsewhere(document, DONOR);
    await commands.users.upsert(partnerId, document, HOLDER);
    expect(await commands.create.execute({ partner_id: partnerId, document, idempotency_key: newUuid(), portability })).toMatchObject({
      ok: true,
    });
    await queue.execute();
    const [key] = await commands.keysOf(partnerId);
    const claimId = [...dict.server.claims.values()].find((c) => c.key === document)?.id ?? '';
    return { partnerId, document, keyId: key.id, claimId };
  }
  const keyEvents = async (partnerId: PartnerId) =>
    (await events(partnerId))
      .filter((e) => !e.resource.claim)
      .map((e) => [e.state, (e.resource as { failure_reason?: string }).failure_reason]);

  it('claims it instead of failing, and completes it once the donor confirmed: the key is registered here with its RequestId', async () => {
    const { partnerId, document, keyId, claimId } = await claimingKey();
    expect(dict.server.claims.get(claimId)).toMatchObject({ type: 'PORTABILITY', status: 'OPEN', donorParticipant: DONOR });
    expect(await commands.keyRow(keyId)).toMatchObject({ state: 'pending', dict_last_error: null });
    // Parked: the registration queue leaves it to the claim.
    await queue.execute();
    expect(dict.server.requests.filter((r) => r.key === document && r.operationId === 'createClaim')).toHaveLength(1);
    const donor = dict.server.as(DONOR);
    donor.acknowledgeClaim(claimId);
    donor.confirmClaim(claimId, 'USER_REQUESTED');
    await run();
    const key = await commands.keyRow(keyId);
    expect([key.state, key.key]).toEqual(['registered', document]);
    expect(dict.server.entries.get(document)).toMatchObject({ participant: STACK_OPERATOR_ISPB, requestId: key.dict_request_id });
    expect(await claimEvents(partnerId)).toEqual([
      ['claim_requested', 'open', null],
      ['claim_confirmed', 'confirmed', null],
      ['claim_completed', 'completed', null],
    ]);
    expect(await keyEvents(partnerId)).toEqual([
      ['pending', null],
      ['registered', null],
    ]);
  });

  it('adopts its claim from the listing when createClaim’s answer was lost: one claim, the key parked, claim_requested once', async () => {
    dict.server.injectFault({ operationId: 'createClaim', kind: 'late', delayMs: 3_500, times: 1 });
    const { partnerId, document, keyId, claimId } = await claimingKey();
    expect(claimId).not.toBe('');
    expect(await commands.keyRow(keyId)).toMatchObject({ state: 'pending', dict_last_error: expect.stringContaining('Timeout') });
    await run();
    expect(await claimRow(claimId)).toMatchObject({ status: 'open' });
    await commands.db.query('UPDATE pix_keys SET dict_next_attempt_at = NULL WHERE id = $1 AND dict_next_attempt_at <> $2', [
      keyId,
      'infinity',
    ]);
    await queue.execute();
    // The test server records a call when its answer leaves: the late one after its delay. Once it is there, no
    // other createClaim may have followed (the queue adopted the claim instead of asking again).
    const createClaims = await pollUntil(
      'the late createClaim answered',
      async () => dict.server.requests.filter((r) => r.key === document && r.operationId === 'createClaim'),
      (calls) => calls.length > 0,
      { timeoutMs: 10_000 },
    );
    expect(createClaims).toHaveLength(1);
    expect(await claimEvents(partnerId)).toEqual([['claim_requested', 'open', null]]);
  }, 20_000);

  it('fails the key claim_canceled when the donor cancels the portability; the CPF stays held elsewhere', async () => {
    const { partnerId, document, keyId, claimId } = await claimingKey();
    const donor = dict.server.as(DONOR);
    donor.acknowledgeClaim(claimId);
    donor.cancelClaim(claimId, 'USER_REQUESTED');
    await run();
    expect(await commands.keyRow(keyId)).toMatchObject({ state: 'failed', failure_reason: 'claim_canceled' });
    expect(dict.server.entries.get(document)?.participant).toBe(DONOR);
    expect(await claimEvents(partnerId)).toEqual([
      ['claim_requested', 'open', null],
      ['claim_canceled', 'cancelled', null],
    ]);
  });

  it('fails it key_held_elsewhere, as before, when the partner did not ask for portability', async () => {
    const { keyId, claimId } = await claimingKey(false);
    expect(claimId).toBe('');
    expect(await commands.keyRow(keyId)).toMatchObject({ state: 'failed', failure_reason: 'key_held_elsewhere' });
  });
});
