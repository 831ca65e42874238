import { PartnerId, PixKeyType } from '@partner/contracts';
import { newCpf, newUuid, selectRows, testPartnerId } from '@partner/testing';
import {
  cidOf,
  HELD_ELSEWHERE_CPF,
  HELD_ELSEWHERE_ISPB,
  StackDict,
  startStackDict,
  STACK_OPERATOR_ISPB,
  TEST_DICT_TIMINGS,
} from '@partner/dict-test-server';
import { pixKeyCommands, specConfig } from '../pix-keys/pix-key-commands.spec-support';
import { UserHolder } from '../users/user.repository';
import { BacenDictDirectory } from './bacen-dict-directory';
import { loadDictCredentials } from './dict-credentials';
import { DictMetrics } from './dict-metrics';
import { ProcessDictQueueUseCase } from './process-dict-queue.use-case';
import { PixKeysConfig } from '../config/pix-keys.config';
import { PixKeyClaimRepository } from '../claims/pix-key-claim.repository';
import { ReconcileDictUseCase } from './reconcile-dict.use-case';

// Integration: pix-keys' DICT queue and reconciliation (apps/pix-keys/src/dict/) on the real pix_keys schema in
// PostgreSQL and a DICT test server of this spec's own (the published document's schemas, signatures, mutual
// TLS), driven by the production adapter. Each test uses a partner (and CPFs) of its own.

const HOLDER: UserHolder = {
  name: "Maria d'Ávila Souza-Lima",
  account: { ispb: STACK_OPERATOR_ISPB, branch: '0001', number: '12345678', type: 'TRAN', openedAt: new Date('2026-11-01T03:00:00.000Z') },
};

let dict: StackDict;
let commands: ReturnType<typeof pixKeyCommands>;
let directory: BacenDictDirectory;
let queue: ProcessDictQueueUseCase;
let reconcile: ReconcileDictUseCase;
let metrics: DictMetrics;

beforeAll(async () => {
  dict = await startStackDict({ name: 'spec', port: 0, timings: TEST_DICT_TIMINGS });
  // Quick retries (10-20 ms); a deadline a late answer (below) misses, and that a 2-core machine meets.
  // Every registered key of the database read back in one run (other suites leave theirs).
  const config = specConfig({
    ...dict.env,
    DICT_TIMEOUT_MS: '3000',
    DICT_RETRY_BASE_MS: '10',
    DICT_RETRY_MAX_MS: '20',
    DICT_RECONCILE_BATCH: '10000',
  });
  commands = pixKeyCommands(config);
  metrics = new DictMetrics();
  directory = new BacenDictDirectory(config, loadDictCredentials(config), metrics);
  queue = queueWith(config);
  reconcile = new ReconcileDictUseCase(config, commands.pixKeys, directory, metrics);
});

afterAll(async () => {
  await directory?.onModuleDestroy();
  await commands?.close();
  await dict?.server.close();
});

/** The queue as the module wires it, with `config`. */
const queueWith = (config: PixKeysConfig) =>
  new ProcessDictQueueUseCase(config, commands.unitOfWork, commands.pixKeys, directory, metrics, new PixKeyClaimRepository(commands.db));

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function pendingKey(
  holder: UserHolder | undefined = HOLDER,
  document = newCpf(),
  partnerId: PartnerId = testPartnerId(),
  keyType: PixKeyType = 'cpf',
) {
  await commands.users.upsert(partnerId, document, holder);
  expect(await commands.create.execute({ partner_id: partnerId, document, idempotency_key: newUuid(), key_type: keyType })).toMatchObject({
    ok: true,
  });
  const [key] = await selectRows<{ id: string; dict_request_id: string }>(
    commands.db,
    'SELECT id, dict_request_id FROM pix_keys WHERE partner_id = $1 AND document = $2 ORDER BY created_at DESC',
    [partnerId, document],
  );
  return { partnerId, document, keyId: key.id, requestId: key.dict_request_id };
}

async function events(partnerId: string) {
  const rows = await selectRows<{ payload: unknown }>(commands.db, 'SELECT payload FROM outbox_messages ORDER BY id');
  return rows
    .map(
      (r) =>
        r.payload as {
          partner_id: string;
          state: string;
          resource_id: string;
          resource: { state: string; failure_reason: string | null; key: string | null; key_type: string };
        },
    )
    .filter((p) => p.partner_id === partnerId);
}
const statesOf = async (partnerId: string) => (await events(partnerId)).map((e) => e.state);
const keyRow = (id: string) => commands.keyRow(id);
const callsFor = (key: string, operationId: string) => dict.server.requests.filter((r) => r.key === key && r.operationId === operationId);
const remove = (partnerId: PartnerId, document: string) =>
  commands.remove.execute({ partner_id: partnerId, document, idempotency_key: newUuid() });

describe('ProcessDictQueueUseCase: registrations and deletions through DICT (PostgreSQL, DICT test server)', () => {
  it('registers the key with a signed, schema-valid request carrying the holder and account, then deletes it the same way', async () => {
    const { partnerId, document, keyId, requestId } = await pendingKey();
    await queue.execute();
    expect((await keyRow(keyId)).state).toBe('registered');
    // The test server answered 201 only after the body validated against the published document and its signature checked.
    expect(callsFor(document, 'createEntry')).toEqual([
      { operationId: 'createEntry', status: 201, signed: true, key: document, requestId },
    ]);
    expect(dict.server.entries.get(document)).toMatchObject({
      keyType: 'CPF',
      participant: STACK_OPERATOR_ISPB,
      branch: '0001',
      accountNumber: '12345678',
      accountType: 'TRAN',
      openingDate: '2026-11-01T03:00:00.000Z',
      ownerType: 'NATURAL_PERSON',
      taxIdNumber: document,
      name: "Maria d'Ávila Souza-Lima",
      requestId,
    });

    expect(await remove(partnerId, document)).toEqual({ ok: true, data: { status: 'accepted', replayed: false } });
    await queue.execute();
    expect((await keyRow(keyId)).state).toBe('canceled');
    expect(callsFor(document, 'deleteEntry')).toEqual([{ operationId: 'deleteEntry', status: 200, signed: true, key: document }]);
    expect(dict.server.entries.has(document)).toBe(false);
    const all = await events(partnerId);
    expect(all.map((e) => e.state)).toEqual(['pending', 'registered', 'deleting', 'canceled']);
    expect(all.every((e) => e.resource_id === keyId && e.resource.state === e.state && e.resource.failure_reason === null)).toBe(true);
  });

  /** A holder of an account of its own: DICT counts the keys of each account (5 for a natural person). */
  const ownAccount = (): UserHolder => {
    if (!HOLDER.account) throw new Error('HOLDER has an account');
    return { ...HOLDER, account: { ...HOLDER.account, number: String(Math.floor(Math.random() * 1e8)).padStart(8, '0') } };
  };

  it('registers an EVP key: sent without a key, DICT generates it, the key and its events carry it; a lost answer makes no second key', async () => {
    const { partnerId, document, keyId, requestId } = await pendingKey(ownAccount(), newCpf(), testPartnerId(), 'evp');
    expect((await keyRow(keyId)).key).toBeNull();
    // The first answer is lost to the deadline: DICT made the key; the retry, the same RequestId, answers that same key.
    dict.server.injectFault({ operationId: 'createEntry', kind: 'late', delayMs: 3_500, times: 1 });
    await queue.execute();
    expect((await keyRow(keyId)).state).toBe('pending');
    await sleep(50);
    await queue.execute();
    const row = await keyRow(keyId);
    expect(row.state).toBe('registered');
    const atDict = [...dict.server.entries.values()].filter((e) => e.taxIdNumber === document);
    expect(atDict.map((e) => [e.keyType, e.key, e.requestId])).toEqual([['EVP', row.key, requestId]]);
    expect(row.key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const all = await events(partnerId);
    expect(all.map((e) => [e.state, e.resource.key, e.resource.key_type])).toEqual([
      ['pending', null, 'evp'],
      ['registered', row.key, 'evp'],
    ]);
    // Read back by its CID (over the generated key): as registered.
    await reconcile.execute(new Date(Date.now() + 86_400_000 * 2));
    expect((await keyRow(keyId)).dict_mismatch).toBeNull();
    // Deleted by the generated key.
    expect(await remove(partnerId, document)).toMatchObject({ ok: true });
    await queue.execute();
    expect((await keyRow(keyId)).state).toBe('canceled');
    expect(dict.server.entries.has(row.key)).toBe(false);
    await sleep(3_500); // the late answer goes out to a closed connection before the next test
  }, 20_000);

  it('fails an EVP key DICT refuses (EntryLimitExceeded: the account has its 5 keys) as dict_rejected, with no key value', async () => {
    const holder = ownAccount();
    // Five users' EVP keys on one account (the same payment account for several, as DICT sees it), registered.
    for (let i = 0; i < 5; i++) await pendingKey(holder, newCpf(), testPartnerId(), 'evp');
    await queue.execute();
    const { partnerId, keyId } = await pendingKey(holder, newCpf(), testPartnerId(), 'evp');
    await queue.execute();
    const row = await keyRow(keyId);
    expect([row.state, row.failure_reason, row.key]).toEqual(['failed', 'dict_rejected', null]);
    expect((await events(partnerId)).map((e) => [e.state, e.resource.key])).toEqual([
      ['pending', null],
      ['failed', null],
    ]);
  });

  /**
   * A key accepted before names were checked at request time (CreatePixKeyUseCase refuses both now): its
   * holder name as it was copied then.
   */
  async function keyAcceptedUnchecked(holderName: string | null) {
    const key = await pendingKey(HOLDER);
    await commands.db.query('UPDATE pix_keys SET holder_name = $2 WHERE id = $1', [key.keyId, holderName]);
    return key;
  }

  it.each([
    ['holder_name_missing', 'a key accepted without a holder name', () => keyAcceptedUnchecked(null)],
    ['account_missing', 'a user with a name and no account yet', () => pendingKey({ name: 'Maria Souza' })],
    ['holder_name_invalid', 'a key accepted with a name DICT does not take (digits)', () => keyAcceptedUnchecked('Maria 2')],
  ] as Array<[string, string, () => ReturnType<typeof pendingKey>]>)(
    'fails the key with %s for %s, without calling DICT',
    async (reason, _label, make) => {
      const { partnerId, document, keyId } = await make();
      await queue.execute();
      const key = await keyRow(keyId);
      expect([key.state, key.failure_reason]).toEqual(['failed', reason]);
      expect(dict.server.requests.filter((r) => r.key === document)).toEqual([]);
      const all = await events(partnerId);
      expect(all.map((e) => [e.state, e.resource.failure_reason])).toEqual([
        ['pending', null],
        ['failed', reason],
      ]);
    },
  );

  it('takes the name given later: a user registered again with a name gets its next key registered', async () => {
    const partnerId = testPartnerId();
    const document = newCpf();
    const first = await pendingKey({ name: 'Maria Souza' }, document, partnerId);
    await queue.execute();
    expect((await keyRow(first.keyId)).failure_reason).toBe('account_missing');
    expect(await commands.users.upsert(partnerId, document, HOLDER)).toMatchObject({ created: false });
    // A later upsert without them keeps them (a client that sends the document alone erases nothing).
    await commands.users.upsert(partnerId, document);
    const second = await pendingKey(undefined, document, partnerId);
    await queue.execute();
    expect((await keyRow(second.keyId)).state).toBe('registered');
  });

  it('reports a CPF held at another institution (EntryKeyInCustodyOfDifferentParticipant) as failed, key_held_elsewhere', async () => {
    const { partnerId, keyId } = await pendingKey(HOLDER, HELD_ELSEWHERE_CPF);
    await queue.execute();
    const key = await keyRow(keyId);
    expect([key.state, key.failure_reason]).toEqual(['failed', 'key_held_elsewhere']);
    expect(dict.server.entries.get(HELD_ELSEWHERE_CPF)?.participant).toBe(HELD_ELSEWHERE_ISPB);
    expect((await events(partnerId)).map((e) => [e.state, e.resource.failure_reason])).toEqual([
      ['pending', null],
      ['failed', 'key_held_elsewhere'],
    ]);
  });

  it('reports the same CPF asked for through a second partner (EntryAlreadyExists) as failed, key_linked_to_another_account', async () => {
    const document = newCpf();
    const first = await pendingKey(HOLDER, document);
    await queue.execute();
    expect((await keyRow(first.keyId)).state).toBe('registered');
    const account = HOLDER.account;
    if (!account) throw new Error('HOLDER has an account');
    const second = await pendingKey({ ...HOLDER, account: { ...account, number: '999' } }, document);
    await queue.execute();
    const key = await keyRow(second.keyId);
    expect([key.state, key.failure_reason]).toEqual(['failed', 'key_linked_to_another_account']);
  });

  it('retries a 503 with backoff and the same RequestId: one entry, registered once', async () => {
    const { partnerId, document, keyId, requestId } = await pendingKey();
    dict.server.injectFault({ operationId: 'createEntry', kind: 'unavailable', times: 1 });
    await queue.execute();
    const waiting = await keyRow(keyId);
    expect(waiting.state).toBe('pending');
    expect(waiting.dict_attempts).toBe(1);
    expect(waiting.dict_last_error).toMatch(/503/);
    // DICT's 503 says Retry-After: 1, longer than the backoff here: the next call waits for it.
    expect(waiting.dict_next_attempt_at?.getTime()).toBeGreaterThanOrEqual(Date.now() + 500);
    const deadline = Date.now() + 5_000;
    while ((await keyRow(keyId)).state === 'pending' && Date.now() < deadline) {
      await queue.execute();
      await sleep(100);
    }
    expect((await keyRow(keyId)).state).toBe('registered');
    // The 503 came before the body was read (it names no key): the call just before the 201, the same RequestId's.
    const created = dict.server.requests.findIndex((r) => r.key === document && r.status === 201);
    expect(dict.server.requests[created - 1]).toMatchObject({ operationId: 'createEntry', status: 503, problem: 'ServiceUnavailable' });
    expect(callsFor(document, 'createEntry')).toEqual([
      { operationId: 'createEntry', status: 201, signed: true, key: document, requestId },
    ]);
    expect(dict.server.entries.get(document)?.requestId).toBe(requestId);
    expect(await statesOf(partnerId)).toEqual(['pending', 'registered']);
  });

  it("waits DICT's Retry-After on a 429, however short its own backoff", async () => {
    const { keyId } = await pendingKey();
    dict.server.injectFault({ operationId: 'createEntry', kind: 'rate_limited', retryAfterSeconds: 120, times: 1 });
    const before = Date.now();
    await queue.execute();
    const waiting = await keyRow(keyId);
    expect([waiting.state, waiting.dict_last_error]).toEqual(['pending', expect.stringMatching(/HTTP 429 RateLimited/)]);
    // The backoff here is 10-20 ms; the next call is not due before DICT's two minutes.
    expect(waiting.dict_next_attempt_at?.getTime()).toBeGreaterThanOrEqual(before + 120_000);
  });

  it('ends failed dict_rejected a registration DICT keeps refusing with unsigned answers, once DICT_UNTRUSTED_REFUSAL_ATTEMPTS is reached', async () => {
    const config = specConfig({ ...dict.env, DICT_RETRY_BASE_MS: '10', DICT_RETRY_MAX_MS: '20', DICT_UNTRUSTED_REFUSAL_ATTEMPTS: '3' });
    const capped = queueWith(config);
    const { partnerId, document, keyId } = await pendingKey();
    // Exactly as many as the cap: the third refusal ends it (the queue counts the call it makes).
    dict.server.injectFault({ operationId: 'createEntry', kind: 'unsigned_refusal', times: 3 });
    const at = dict.server.requests.length;
    const deadline = Date.now() + 10_000;
    while ((await keyRow(keyId)).state === 'pending' && Date.now() < deadline) {
      await capped.execute();
      await sleep(30);
    }
    const key = await keyRow(keyId);
    expect([key.state, key.failure_reason, callsFor(document, 'createEntry').length]).toEqual(['failed', 'dict_rejected', 0]);
    // The refusals came before the body was read (they name no key): three calls, each refused unsigned.
    expect(dict.server.requests.slice(at).map((r) => [r.operationId, r.status])).toEqual(Array(3).fill(['createEntry', 400]));
    expect(await statesOf(partnerId)).toEqual(['pending', 'failed']);
  });

  it('retries an answer lost to the deadline: DICT had created the entry, and answers the retry with it again (201)', async () => {
    const { partnerId, document, keyId, requestId } = await pendingKey();
    dict.server.injectFault({ operationId: 'createEntry', kind: 'late', delayMs: 3_500, times: 1 });
    await queue.execute();
    expect((await keyRow(keyId)).state).toBe('pending');
    expect(dict.server.entries.get(document)?.requestId).toBe(requestId);
    await sleep(50);
    await queue.execute();
    expect((await keyRow(keyId)).state).toBe('registered');
    expect(await statesOf(partnerId)).toEqual(['pending', 'registered']);
    await sleep(3_500); // the late answer goes out to a closed connection before the next test
  }, 15_000);

  it('deletes right after registration a key whose deletion was asked for while it was pending', async () => {
    const { partnerId, document, keyId } = await pendingKey();
    expect(await remove(partnerId, document)).toEqual({ ok: true, data: { status: 'accepted', replayed: false } });
    await queue.execute();
    expect((await keyRow(keyId)).state).toBe('deleting');
    await queue.execute();
    expect((await keyRow(keyId)).state).toBe('canceled');
    expect(await statesOf(partnerId)).toEqual(['pending', 'registered', 'deleting', 'canceled']);
  });

  it('ends a deletion canceled when DICT holds no such entry (NotFound), and retries one DICT refuses', async () => {
    const gone = await pendingKey();
    await queue.execute();
    dict.server.entries.delete(gone.document);
    await remove(gone.partnerId, gone.document);
    await queue.execute();
    expect((await keyRow(gone.keyId)).state).toBe('canceled');

    const refused = await pendingKey();
    await queue.execute();
    const entry = dict.server.entries.get(refused.document);
    if (!entry) throw new Error('not registered');
    // Now another participant's entry: DICT answers Forbidden, and the deletion waits, `deleting`.
    dict.server.entries.set(refused.document, { ...entry, participant: HELD_ELSEWHERE_ISPB });
    await remove(refused.partnerId, refused.document);
    await queue.execute();
    const waiting = await keyRow(refused.keyId);
    expect([waiting.state, waiting.dict_last_error]).toEqual(['deleting', expect.stringMatching(/Forbidden/)]);
    dict.server.entries.set(refused.document, entry);
    await sleep(50);
    await queue.execute();
    expect((await keyRow(refused.keyId)).state).toBe('canceled');
  });

  it('stores a failure masked: a CPF a DICT problem quotes is not kept in dict_last_error', async () => {
    const { partnerId, document, keyId } = await pendingKey();
    const key = await commands.unitOfWork.run((tx) => commands.pixKeys.findById(tx, partnerId, keyId));
    if (!key) throw new Error('no key');
    await commands.pixKeys.retryLater(key, new Date(Date.now() + 60_000), `DICT 400 EntryInvalid: key ${document} is invalid`);
    const { dict_last_error: stored } = await keyRow(keyId);
    expect(stored).toMatch(/^DICT 400 EntryInvalid: key .+ is invalid$/);
    expect(stored).not.toContain(document);
  });

  it('moves each key once when several queue runs go at the same time', async () => {
    const keys = await Promise.all(Array.from({ length: 5 }, () => pendingKey()));
    await Promise.all([queue.execute(), queue.execute(), queue.execute()]);
    for (const { partnerId, document } of keys) {
      expect(await statesOf(partnerId)).toEqual(['pending', 'registered']);
      expect(callsFor(document, 'createEntry')).toHaveLength(1);
    }
  });
});

describe('ReconcileDictUseCase: registered entries read back from DICT by their CID', () => {
  // Each run a day after the last, so every registered key is due again.
  let day = 1;
  const later = () => new Date(Date.now() + 86_400_000 * (365 + day++));

  it('reads its own entries by CID, never getEntry (which DICT refuses for them): nothing for one as registered, entry_missing for one changed or lost', async () => {
    const { document, keyId } = await pendingKey();
    await queue.execute();
    const before = (await metrics.mismatches.get()).values.reduce((n, v) => n + v.value, 0);

    const matched = await reconcile.execute(later());
    expect(matched.unanswered).toBe(0);
    expect(matched.checked).toBeGreaterThanOrEqual(1);
    expect((await keyRow(keyId)).dict_mismatch).toBeNull();
    expect(callsFor(document, 'getEntryByCid')).toEqual([expect.objectContaining({ status: 200 })]);
    expect(callsFor(document, 'getEntry')).toEqual([]);

    // Changed at DICT (a claim, an update elsewhere): its CID is another, so the one registered is no longer active.
    const entry = dict.server.entries.get(document);
    if (!entry) throw new Error('not registered');
    const changed = { ...entry, name: 'Outra Pessoa', accountNumber: '1' };
    dict.server.entries.set(document, { ...changed, cid: cidOf(changed) });
    await reconcile.execute(later());
    expect((await keyRow(keyId)).dict_mismatch).toBe('entry_missing');

    dict.server.entries.set(document, entry);
    await reconcile.execute(later());
    expect((await keyRow(keyId)).dict_mismatch).toBeNull();

    dict.server.entries.delete(document);
    await reconcile.execute(later());
    const key = await keyRow(keyId);
    expect([key.state, key.dict_mismatch]).toEqual(['registered', 'entry_missing']);
    const after = (await metrics.mismatches.get()).values.reduce((n, v) => n + v.value, 0);
    expect(after - before).toBeGreaterThanOrEqual(2);
  }, 30_000);

  it("stops reading on a 429 until DICT's Retry-After, this run's further keys and the next runs' too", async () => {
    const keys = await Promise.all(Array.from({ length: 3 }, () => pendingKey()));
    await queue.execute();
    const own = new ReconcileDictUseCase(
      specConfig({ ...dict.env, DICT_CONCURRENCY: '1', DICT_RECONCILE_BATCH: '10000' }),
      commands.pixKeys,
      directory,
      metrics,
    );
    const reads = () => dict.server.requests.filter((r) => r.operationId === 'getEntryByCid').length;
    dict.server.injectFault({ operationId: 'getEntryByCid', kind: 'rate_limited', retryAfterSeconds: 600, times: 100 });
    const at = reads();
    const first = await own.execute(later());
    expect(reads() - at).toBe(1);
    expect(first.unanswered).toBeGreaterThanOrEqual(keys.length);
    const second = await own.execute(later());
    expect(reads() - at).toBe(1);
    expect(second.checked).toBe(0);
  }, 30_000);
});
