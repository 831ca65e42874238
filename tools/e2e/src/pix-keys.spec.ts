import { ApiClient, newCpf, newUuid, pollUntil } from '@partner/testing';
import { FeedEvent, gatewayUrl, listEvents, newPartner } from './support/sandbox';

// Keys are registered in DICT: the stack's DICT test server (tools/dict-test-server/), through pix-keys' production
// adapter. tools/e2e/src/dict.spec.ts looks at DICT itself.

/** The CPF the stack's DICT holds at another institution: its registration is refused (docs/api.md, "Pix keys"). */
const DICT_REFUSED_CPF = '00000000191';
/** The CPF whose deletion the stack's DICT answers only after 2 s. */
const SLOW_DELETE_CPF = '00000000272';
const CREATE = '/partner/v1/pix-key';

/** A user of the partner with a holder's name (DICT records it with the key) and, through the sandbox, a payment account. */
async function newUser(api: ApiClient, _micros = 0, document = newCpf()): Promise<string> {
  const res = await api.post('/sandbox/v1/users', { document, usdt_micros: 0, name: 'Maria da Silva Souza' });
  if (res.status !== 201 && res.status !== 200) throw new Error(`user creation failed: ${res.status} ${JSON.stringify(res.body)}`);
  return document;
}

const createKey = (api: ApiClient, document: string, idempotencyKey = newUuid()) =>
  api.post(CREATE, { document, idempotency_key: idempotencyKey });
const deleteKey = (api: ApiClient, document: string, idempotencyKey = newUuid()) =>
  api.request('DELETE', `${CREATE}/${document}`, { idempotency_key: idempotencyKey });

const getKey = (api: ApiClient, document: string) => api.get(`${CREATE}/${document}`);

/** What GET /partner/v1/pix-key/{document} answers for the key as an event's data shows it. */
const viewOf = (data: Record<string, unknown>) => ({
  document: data.document,
  key_type: data.key_type,
  key: data.key,
  status: data.state,
  created_at: data.created_at,
  last_updated_at: data.last_updated_at,
});

const pixKeyEvents = (events: FeedEvent[], document: string) => events.filter((e) => e.type === 'pix_key' && e.data.document === document);

/** Waits until the user's key events include `state` (for the key `resourceId` when given); answers all the user's key events. */
function eventsUntil(api: ApiClient, document: string, state: string, resourceId?: string): Promise<FeedEvent[]> {
  return pollUntil(
    `a pix_key ${state} event`,
    async () => pixKeyEvents(await listEvents(api), document),
    (all) => all.some((e) => e.state === state && (resourceId === undefined || e.resource_id === resourceId)),
  );
}

async function userWithRegisteredKey(api: ApiClient): Promise<{ document: string; keyId: string }> {
  const document = await newUser(api, 0);
  expect((await createKey(api, document)).status).toBe(202);
  const events = await eventsUntil(api, document, 'registered');
  return { document, keyId: events[0].resource_id };
}

describe('Pix keys end to end', () => {
  it('create → registered → delete → canceled → delete again succeeded → re-create → registered', async () => {
    const { api } = await newPartner();
    const document = await newUser(api, 0);

    const created = await createKey(api, document);
    expect(created.status).toBe(202);
    expect(created.body).toEqual({ status: 'accepted' });
    // Read back at once: the key is there, pending or already registered.
    const early = await getKey(api, document);
    expect(early.status).toBe(200);
    expect(Object.keys(early.body).sort()).toEqual(['created_at', 'document', 'key', 'key_type', 'last_updated_at', 'status']);

    const registered = await eventsUntil(api, document, 'registered');
    expect(registered.map((e) => e.state)).toEqual(['pending', 'registered']);
    const keyId = registered[0].resource_id;
    for (const e of registered) {
      expect(e.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(e.resource_id).toBe(keyId);
      expect(Number.isInteger(e.created_at)).toBe(true);
      expect(e.data).toEqual({
        id: keyId,
        key: document,
        key_type: 'cpf',
        document,
        state: e.state,
        failure_reason: null,
        created_at: expect.any(Number),
        last_updated_at: expect.any(Number),
      });
    }
    expect(early.body).toEqual(viewOf(registered.find((e) => e.state === early.body.status)?.data ?? {}));
    const readRegistered = await getKey(api, document);
    expect({ status: readRegistered.status, body: readRegistered.body }).toEqual({ status: 200, body: viewOf(registered[1].data) });
    expect(readRegistered.body).toMatchObject({ document, status: 'registered' });
    for (const time of [readRegistered.body.created_at, readRegistered.body.last_updated_at]) expect(Number.isInteger(time)).toBe(true);

    const deleted = await deleteKey(api, document);
    expect(deleted.status).toBe(202);
    expect(deleted.body).toEqual({ status: 'accepted' });
    const canceled = await eventsUntil(api, document, 'canceled');
    expect(canceled.map((e) => [e.resource_id, e.state])).toEqual([
      [keyId, 'pending'],
      [keyId, 'registered'],
      [keyId, 'deleting'],
      [keyId, 'canceled'],
    ]);

    const again = await deleteKey(api, document);
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ status: 'succeeded' });
    expect(await getKey(api, document)).toMatchObject({ status: 200, body: viewOf(canceled[3].data) });

    const recreated = await createKey(api, document);
    expect(recreated.status).toBe(202);
    expect(recreated.body).toEqual({ status: 'accepted' });
    const all = await pollUntil(
      'the new key registered',
      async () => pixKeyEvents(await listEvents(api), document),
      (events) => events.some((e) => e.state === 'registered' && e.resource_id !== keyId),
    );
    const newKey = all.filter((e) => e.resource_id !== keyId);
    expect(newKey.map((e) => e.state)).toEqual(['pending', 'registered']);
    // The user has had two keys: the current one, the new key, is answered, not the canceled one.
    const current = await getKey(api, document);
    expect({ status: current.status, body: current.body }).toEqual({ status: 200, body: viewOf(newKey[1].data) });
    expect(current.body.created_at).toBeGreaterThanOrEqual(canceled[3].data.last_updated_at as number);
  });

  it('reports a registration the DICT refuses as failed, with its reason; there is then no key to delete, and a new try is accepted', async () => {
    const { api } = await newPartner();
    await newUser(api, 0, DICT_REFUSED_CPF);

    expect((await createKey(api, DICT_REFUSED_CPF)).status).toBe(202);
    const events = await eventsUntil(api, DICT_REFUSED_CPF, 'failed');
    expect(events.map((e) => e.state)).toEqual(['pending', 'failed']);
    // DICT's EntryKeyInCustodyOfDifferentParticipant, as the partner reads it.
    expect(events[1].data).toMatchObject({ state: 'failed', failure_reason: 'key_held_elsewhere', key: DICT_REFUSED_CPF });
    expect(await getKey(api, DICT_REFUSED_CPF)).toMatchObject({ status: 200, body: { document: DICT_REFUSED_CPF, status: 'failed' } });

    const removed = await deleteKey(api, DICT_REFUSED_CPF);
    expect(removed.status).toBe(404);
    expect(removed.body).toMatchObject({ status: 'not_found', message: expect.any(String) });

    expect((await createKey(api, DICT_REFUSED_CPF)).status).toBe(202);
  });

  it('accepts a deletion while the key is still being registered: it is deleted right after registration', async () => {
    const { api } = await newPartner();
    const document = await newUser(api, 0);
    expect((await createKey(api, document)).status).toBe(202);

    const deleted = await deleteKey(api, document);
    expect(deleted.status).toBe(202);
    expect(deleted.body).toEqual({ status: 'accepted' });
    const events = await eventsUntil(api, document, 'canceled');
    expect(events.map((e) => e.state)).toEqual(['pending', 'registered', 'deleting', 'canceled']);
  });

  it('replays an idempotency key: same request, first answer and nothing new; another request with it is 422', async () => {
    const { api } = await newPartner();
    const document = await newUser(api, 0);
    const createKeyId = newUuid();
    expect((await createKey(api, document, createKeyId)).status).toBe(202);
    const replay = await createKey(api, document, createKeyId);
    expect(replay.status).toBe(202);
    expect(replay.body).toEqual({ status: 'accepted' });
    const registered = await eventsUntil(api, document, 'registered');
    expect(registered.map((e) => e.state)).toEqual(['pending', 'registered']);

    // The first answer even after the key was registered (a new request would be 409).
    expect(await createKey(api, document, createKeyId)).toMatchObject({ status: 202, body: { status: 'accepted' } });

    const deleteKeyId = newUuid();
    expect((await deleteKey(api, document, deleteKeyId)).status).toBe(202);
    await eventsUntil(api, document, 'canceled');
    // A new request would be told succeeded; the retry of the first one gets its own answer again.
    expect(await deleteKey(api, document, deleteKeyId)).toMatchObject({ status: 202, body: { status: 'accepted' } });
    expect(await deleteKey(api, document)).toMatchObject({ status: 200, body: { status: 'succeeded' } });

    const otherUser = await newUser(api, 0);
    for (const reused of [await createKey(api, otherUser, createKeyId), await deleteKey(api, document, createKeyId)]) {
      expect(reused.status).toBe(422);
      expect(reused.body).toMatchObject({ status: 'idempotency_key_reused', message: expect.any(String), field: 'idempotency_key' });
    }
  });

  it('makes exactly one key of 10 parallel creations for one user', async () => {
    const { api } = await newPartner();
    const document = await newUser(api, 0);
    const answers = await Promise.all(Array.from({ length: 10 }, () => createKey(api, document)));
    expect(answers.filter((a) => a.status === 202)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 409).map((a) => a.body.status)).toEqual(Array(9).fill('already_exists'));
    const events = await eventsUntil(api, document, 'registered');
    expect(new Set(events.map((e) => e.resource_id)).size).toBe(1);
  });

  it('keeps each partner to its own keys: another partner neither sees nor deletes them', async () => {
    const a = await newPartner('partner A');
    const b = await newPartner('partner B');
    const { document } = await userWithRegisteredKey(a.api);

    const create = await createKey(b.api, document);
    expect(create.status).toBe(404);
    expect(create.body).toMatchObject({ status: 'user_not_found', message: expect.any(String) });
    const remove = await deleteKey(b.api, document);
    expect(remove.status).toBe(404);
    expect(remove.body).toMatchObject({ status: 'not_found', message: expect.any(String) });
    const read = await getKey(b.api, document);
    expect({ status: read.status, body: read.body }).toEqual({
      status: 404,
      body: expect.objectContaining({ status: 'not_found', message: expect.any(String) }),
    });
    expect(await getKey(a.api, document)).toMatchObject({ status: 200, body: { document, status: 'registered' } });
    expect(await listEvents(b.api, '')).toEqual([]);

    // A's key is untouched, and A alone can delete it.
    expect(await deleteKey(a.api, document)).toMatchObject({ status: 202, body: { status: 'accepted' } });
  });

  describe('documented errors, in the {status} body shape', () => {
    let api: ApiClient;
    beforeAll(async () => {
      ({ api } = await newPartner());
    });

    const expectStatus = (res: { status: number; body: unknown }, status: number, code: string, field?: string) => {
      expect(res.status).toBe(status);
      expect(res.body).toMatchObject({ status: code, message: expect.any(String), ...(field ? { field } : {}) });
    };

    it('POST 409 already_exists while the key is pending and once it is registered', async () => {
      const document = await newUser(api, 0);
      expect((await createKey(api, document)).status).toBe(202);
      expectStatus(await createKey(api, document), 409, 'already_exists');
      await eventsUntil(api, document, 'registered');
      expectStatus(await createKey(api, document), 409, 'already_exists');
    });

    it('POST 404 user_not_found when no user has the document', async () => {
      expectStatus(await createKey(api, newCpf()), 404, 'user_not_found');
    });

    it.each([
      ['wrong check digit', '52998224724'],
      ['repeated digits', '11111111111'],
      ['formatted', '529.982.247-25'],
      ['too short', '5299822472'],
      ['a number', 52998224725],
      ['missing', undefined],
    ])('POST 400 invalid_document: %s', async (_label, document) => {
      expectStatus(await api.post(CREATE, { document, idempotency_key: newUuid() }), 400, 'invalid_document', 'document');
    });

    it.each([
      ['wrong check digit', '52998224724'],
      ['repeated digits', '00000000000'],
      ['too long', '529982247250'],
      ['letters', '5299822472a'],
    ])('DELETE 400 invalid_document in the path: %s', async (_label, document) => {
      expectStatus(await deleteKey(api, document), 400, 'invalid_document', 'document');
    });

    it('DELETE checks the path before the body: a bad CPF is invalid_document even with a bad body too', async () => {
      expectStatus(await api.request('DELETE', `${CREATE}/52998224724`, { idempotency_key: 'nope' }), 400, 'invalid_document', 'document');
    });

    it('DELETE 404 not_found when the user has no key, or is unknown', async () => {
      expectStatus(await deleteKey(api, await newUser(api, 0)), 404, 'not_found');
      expectStatus(await deleteKey(api, newCpf()), 404, 'not_found');
    });

    it('GET 404 not_found when the user never had a key, or is unknown', async () => {
      for (const document of [await newUser(api, 0), newCpf()]) {
        const res = await getKey(api, document);
        expect({ status: res.status, body: res.body }).toEqual({
          status: 404,
          body: expect.objectContaining({ status: 'not_found', message: expect.any(String) }),
        });
      }
    });

    it.each([
      ['wrong check digit', '52998224724'],
      ['repeated digits', '00000000000'],
      ['too long', '529982247250'],
      ['formatted', '529.982.247-25'],
    ])('GET 400 invalid_document in the path: %s', async (_label, document) => {
      const res = await getKey(api, document);
      expect({ status: res.status, body: res.body }).toEqual({
        status: 400,
        body: expect.objectContaining({ status: 'invalid_document', field: 'document', message: expect.any(String) }),
      });
    });

    it('DELETE 200 already_sent while a deletion is in flight', async () => {
      // The stack's DICT answers this CPF's deletion after 2 s (tools/dict-test-server/src/lib/local-dict.ts), so it is still in flight.
      const document = await newUser(api, 0, SLOW_DELETE_CPF);
      expect((await createKey(api, document)).status).toBe(202);
      await eventsUntil(api, document, 'registered');
      expect((await deleteKey(api, document)).status).toBe(202);
      const again = await deleteKey(api, document);
      expect(again.status).toBe(200);
      expect(again.body).toEqual({ status: 'already_sent' });
    });

    it.each([
      [
        'POST with a malformed idempotency_key',
        () => api.post(CREATE, { document: newCpf(), idempotency_key: 'not-a-uuid' }),
        'idempotency_key',
      ],
      ['POST with an unknown field', () => api.post(CREATE, { document: newCpf(), idempotency_key: newUuid(), kind: 'cpf' }), 'kind'],
      ['DELETE with a malformed idempotency_key', () => deleteKey(api, newCpf(), 'nope'), 'idempotency_key'],
      ['DELETE without a body', () => api.request('DELETE', `${CREATE}/${newCpf()}`), 'idempotency_key'],
    ])('400 invalid_request: %s', async (_label, send, field) => {
      expectStatus(await send(), 400, 'invalid_request', field);
    });

    it('400 invalid_request for a body that is not valid JSON', async () => {
      const res = await api.post(CREATE, '{"document": ');
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ status: 'invalid_request', message: expect.any(String) });
    });

    it.each([
      ['POST', CREATE],
      ['DELETE', `${CREATE}/52998224725`],
      ['GET', `${CREATE}/52998224725`],
    ])('%s %s without a valid X-API-Key is 401 {error: unauthorized}', async (method, path) => {
      for (const client of [new ApiClient(gatewayUrl()), new ApiClient(gatewayUrl(), { 'x-api-key': 'pk_sandbox_unknown' })]) {
        const res = await client.request(
          method,
          path,
          method === 'GET' ? undefined : { document: '52998224725', idempotency_key: newUuid() },
        );
        expect(res.status).toBe(401);
        expect(res.body).toMatchObject({ error: 'unauthorized', message: expect.any(String) });
      }
    });
  });
});
