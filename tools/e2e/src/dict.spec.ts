import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { Agent, request } from 'undici';
import { cidOf } from '@partner/dict-test-server';
import { ApiClient, newCpf, newUuid, pollUntil, requireEnv } from '@partner/testing';
import { FeedEvent, gatewayAdminUrl, listEvents, newPartner } from './support/sandbox';

// DICT, as the stack runs it (docs/api.md "Pix keys", docs/operations/pix-and-dict.md "DICT"): pix-keys registers and
// deletes keys through its production adapter (signed XML, mutual TLS) at the DICT test server
// (tools/dict-test-server/), which answers only requests that validate against the Central Bank's published document
// and carry a valid signature. This suite reads DICT itself with pix-keys' client certificate (DICT_*,
// scripts/test/run.ts), and the test server's log of what it answered (STACK_LOG_DIR/dict-test-server.log).

/** The CPF the stack's DICT holds at another institution (tools/dict-test-server/src/lib/local-dict.ts). */
const HELD_ELSEWHERE = '00000000191';
const NAME = "Joana D'Arc Prado-Araújo";

const operator = () => new ApiClient(gatewayAdminUrl(), { 'x-admin-key': requireEnv('ADMIN_API_KEY') });

/**
 * The participant's entry of `key` at the DICT test server, read as pix-keys' reconciliation reads it: by its CID
 * (getEntryByCid), computed from the key's registration as pix-keys keeps it (DICT refuses getEntry for one's own).
 */
async function dictEntry(key: string): Promise<{ status: number; xml: string }> {
  const db = new Client({ connectionString: requireEnv('DATABASE_URL') });
  await db.connect();
  let cid: string;
  try {
    const { rows } = await db.query<Record<string, string>>(
      `SELECT dict_request_id, holder_name, account_ispb, account_branch, account_number, account_type FROM pix_keys.pix_keys
       WHERE key = $1 ORDER BY created_at DESC LIMIT 1`,
      [key],
    );
    const k = rows[0];
    if (!k) throw new Error(`no Pix key ${key} asked for`);
    cid = cidOf({
      keyType: 'CPF',
      key,
      taxIdNumber: key,
      name: k.holder_name,
      tradeName: '',
      participant: k.account_ispb,
      branch: k.account_branch,
      accountNumber: k.account_number,
      accountType: k.account_type,
      requestId: k.dict_request_id,
    });
  } finally {
    await db.end();
  }
  return readDict(`/cids/entries/${cid}`, { 'PI-RequestingParticipant': requireEnv('DICT_ISPB') });
}

/** GET /entries/{Key} at the DICT test server: a payment's lookup, allowed for another participant's entry only. */
const dictEntryElsewhere = (key: string) =>
  readDict(`/entries/${key}`, {
    'PI-RequestingParticipant': requireEnv('DICT_ISPB'),
    'PI-PayerId': key,
    'PI-EndToEndId': `E${requireEnv('DICT_ISPB')}${new Date().toISOString().replace(/\D/g, '').slice(0, 12)}e2edictspec`,
  });

/** A read of the DICT test server with pix-keys' client certificate. */
async function readDict(path: string, headers: Record<string, string>): Promise<{ status: number; xml: string }> {
  const agent = new Agent({
    connect: {
      ca: readFileSync(requireEnv('DICT_CA_FILE')),
      cert: readFileSync(requireEnv('DICT_CLIENT_CERT_FILE')),
      key: readFileSync(requireEnv('DICT_CLIENT_KEY_FILE')),
    },
  });
  try {
    const res = await request(`${requireEnv('DICT_URL')}${path}`, { dispatcher: agent, headers });
    return { status: res.statusCode, xml: await res.body.text() };
  } finally {
    await agent.close();
  }
}

/** The test server's lines about `key` (what it answered, after validating and checking each request). */
const dictLog = (key: string) =>
  readFileSync(join(requireEnv('STACK_LOG_DIR'), 'dict-test-server.log'), 'utf8')
    .split('\n')
    .filter((line) => line.includes(`key=${key}`))
    .map((line) => line.replace(/^\S+ dict-test-server: /, ''));

const keyEvents = async (api: ApiClient, document: string): Promise<FeedEvent[]> =>
  (await listEvents(api)).filter((e) => e.type === 'pix_key' && e.data.document === document);

const until = (api: ApiClient, document: string, state: string, after = 0) =>
  pollUntil(
    `a pix_key ${state} event`,
    () => keyEvents(api, document),
    (events) => events.slice(after).some((e) => e.state === state),
  );

const createKey = (api: ApiClient, document: string) => api.post('/partner/v1/pix-key', { document, idempotency_key: newUuid() });

describe('DICT: keys registered and deleted through the DICT test server', () => {
  it('registers a key with a signed, schema-valid request carrying the holder and account, and deletes it the same way', async () => {
    const { api } = await newPartner();
    const document = newCpf();
    expect((await api.post('/sandbox/v1/users', { document, usdt_micros: 0, name: NAME })).status).toBe(201);

    expect(await createKey(api, document)).toMatchObject({ status: 202, body: { status: 'accepted' } });
    const registered = await until(api, document, 'registered');
    expect(registered.map((e) => e.state)).toEqual(['pending', 'registered']);

    // DICT has the entry: the user's CPF, its holder's name, an account at the operator's ISPB.
    const entry = await dictEntry(document);
    expect(entry.status).toBe(200);
    expect(entry.xml).toContain(`<Key>${document}</Key>`);
    expect(entry.xml).toContain('<KeyType>CPF</KeyType>');
    expect(entry.xml).toContain(`<Participant>${requireEnv('DICT_ISPB')}</Participant>`);
    expect(entry.xml).toContain('<AccountType>TRAN</AccountType>');
    expect(entry.xml).toMatch(/<Name>Joana D(?:'|&apos;)Arc Prado-Araújo<\/Name>/);
    expect(entry.xml).toMatch(/<ds:SignatureValue>/);

    expect(await api.request('DELETE', `/partner/v1/pix-key/${document}`, { idempotency_key: newUuid() })).toMatchObject({ status: 202 });
    const canceled = await until(api, document, 'canceled');
    expect(canceled.map((e) => e.state)).toEqual(['pending', 'registered', 'deleting', 'canceled']);
    expect((await dictEntry(document)).status).toBe(404);

    // What the test server answered: each request validated against the document and its signature checked first.
    expect(dictLog(document)).toEqual(
      expect.arrayContaining([
        `POST /api/v1/entries/ createEntry 201 key=${document}`,
        expect.stringMatching(new RegExp(`^GET /api/v1/cids/entries/[0-9a-f]{64} getEntryByCid 200 key=${document}$`)),
        `POST /api/v1/entries/${document}/delete deleteEntry 200 key=${document}`,
      ]),
    );
  });

  it('reports a key held at another institution as failed, key_held_elsewhere, in the feed and on the key', async () => {
    const { api } = await newPartner();
    const created = await api.post('/sandbox/v1/users', { document: HELD_ELSEWHERE, usdt_micros: 0, name: NAME });
    expect(created.status).toBe(201);
    expect((await createKey(api, HELD_ELSEWHERE)).status).toBe(202);
    const events = await until(api, HELD_ELSEWHERE, 'failed');
    expect(events.map((e) => [e.state, e.data.failure_reason])).toEqual([
      ['pending', null],
      ['failed', 'key_held_elsewhere'],
    ]);
    expect(await api.get(`/partner/v1/pix-key/${HELD_ELSEWHERE}`)).toMatchObject({ status: 200, body: { status: 'failed' } });
    // Still the other institution's.
    expect((await dictEntryElsewhere(HELD_ELSEWHERE)).xml).toContain('<Participant>00000000</Participant>');
  });

  it("refuses at once a key for a user without a holder's name (422 holder_name_missing), and registers it once the request gives the name", async () => {
    const { id, api } = await newPartner();
    const document = newCpf();
    // The document alone stays a valid registration (every client before names existed).
    expect((await operator().post(`/admin/v1/partners/${id}/users`, { document })).status).toBe(201);
    const refused = await createKey(api, document);
    expect(refused).toMatchObject({ status: 422, body: { status: 'holder_name_missing', field: 'name', message: expect.any(String) } });
    // Nothing was accepted: no key, no event, and the refusal bound no idempotency key.
    expect(await api.get(`/partner/v1/pix-key/${document}`)).toMatchObject({ status: 404, body: { status: 'not_found' } });
    expect(await keyEvents(api, document)).toEqual([]);

    // The partner gives the name with the key request: accepted, registered with that name, now the user's.
    expect(await api.post('/partner/v1/pix-key', { document, idempotency_key: newUuid(), name: NAME })).toMatchObject({
      status: 202,
      body: { status: 'accepted' },
    });
    expect((await until(api, document, 'registered')).map((e) => e.state)).toEqual(['pending', 'registered']);
    expect((await dictEntry(document)).xml).toMatch(/<Name>Joana D(?:'|&apos;)Arc Prado-Araújo<\/Name>/);

    // The next key, asked with the CPF alone, uses the name the partner gave.
    expect((await api.request('DELETE', `/partner/v1/pix-key/${document}`, { idempotency_key: newUuid() })).status).toBe(202);
    const canceled = await until(api, document, 'canceled');
    expect((await createKey(api, document)).status).toBe(202);
    expect((await until(api, document, 'registered', canceled.length)).length).toBe(canceled.length + 2);
    expect((await dictEntry(document)).xml).toMatch(/<Name>Joana D(?:'|&apos;)Arc Prado-Araújo<\/Name>/);
  });

  it('a key for a user whose name on file DICT would refuse is 422 holder_name_invalid; a name in the request corrects it', async () => {
    const { id, api } = await newPartner();
    const document = newCpf();
    // The operator's registration takes any printable name; DICT takes letters, spaces, ' and - only.
    expect((await operator().post(`/admin/v1/partners/${id}/users`, { document, name: 'Maria Souza 2ª' })).status).toBe(201);
    expect(await createKey(api, document)).toMatchObject({ status: 422, body: { status: 'holder_name_invalid', field: 'name' } });
    expect(await api.post('/partner/v1/pix-key', { document, idempotency_key: newUuid(), name: 'Maria Souza' })).toMatchObject({
      status: 202,
    });
    await until(api, document, 'registered');
    expect((await dictEntry(document)).xml).toContain('<Name>Maria Souza</Name>');
  });

  it('gives a sandbox user made with its document alone a holder name of its own, so its key registers', async () => {
    const { api } = await newPartner();
    const document = newCpf();
    expect((await api.post('/sandbox/v1/users', { document, usdt_micros: 0 })).status).toBe(201);
    expect((await createKey(api, document)).status).toBe(202);
    expect((await until(api, document, 'registered')).map((e) => e.state)).toEqual(['pending', 'registered']);
    expect((await dictEntry(document)).xml).toMatch(/<Name>[A-Za-zÀ-ÿ]+ [A-Za-zÀ-ÿ]+ Sandbox<\/Name>/);
  });

  it('binds the name to the idempotency key: the same key with another name is 422 idempotency_key_reused', async () => {
    const { api } = await newPartner();
    const document = newCpf();
    expect((await api.post('/sandbox/v1/users', { document, usdt_micros: 0 })).status).toBe(201);
    const key = newUuid();
    expect((await api.post('/partner/v1/pix-key', { document, idempotency_key: key, name: 'Maria Souza' })).status).toBe(202);
    const replay = await api.post('/partner/v1/pix-key', { document, idempotency_key: key, name: 'Maria Souza' });
    expect([replay.status, replay.headers.get('idempotent-replayed')]).toEqual([202, 'true']);
    expect(await api.post('/partner/v1/pix-key', { document, idempotency_key: key, name: 'Ana Souza' })).toMatchObject({
      status: 422,
      body: { status: 'idempotency_key_reused', field: 'idempotency_key' },
    });
  });
});

describe("the holder's name: hostile input gets the family's 400, never a 5xx", () => {
  const hostile: Array<[string, unknown]> = [
    ['a NUL character', 'Maria\u0000Souza'],
    ['a bell', 'Maria\u0007'],
    ['a line break', 'Maria\nSouza'],
    ['an escape sequence', '\u001b[31mMaria'],
    ['a right-to-left override (a format character)', '\u202eMaria'],
    ['blanks only', '   '],
    ['nothing', ''],
    ['121 characters', 'a'.repeat(121)],
    ['a number', 42],
    ['a list', ['Maria']],
    ['an object', { first: 'Maria' }],
  ];

  it.each(hostile)('operator registration refuses a name with %s', async (_label, name) => {
    const { id } = await newPartner();
    const res = await operator().post(`/admin/v1/partners/${id}/users`, { document: newCpf(), name });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'invalid_request', field: 'name', message: expect.any(String) });
  });

  it.each([...hostile, ['a digit (DICT takes letters only)', 'Maria 2'], ['a full stop', 'Maria S.']] as Array<[string, unknown]>)(
    'the key request refuses a name with %s (400 invalid_request, field name), accepting nothing',
    async (_label, name) => {
      const { api } = await newPartner();
      const document = newCpf();
      expect((await api.post('/sandbox/v1/users', { document, usdt_micros: 0 })).status).toBe(201);
      const res = await api.post('/partner/v1/pix-key', { document, idempotency_key: newUuid(), name });
      expect(res).toMatchObject({ status: 400, body: { status: 'invalid_request', field: 'name', message: expect.any(String) } });
      expect((await api.get(`/partner/v1/pix-key/${document}`)).status).toBe(404);
    },
  );

  it.each(hostile)('the sandbox helper refuses a name with %s', async (_label, name) => {
    const { api } = await newPartner();
    const res = await api.post('/sandbox/v1/users', { document: newCpf(), usdt_micros: 0, name });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ field: 'name', message: expect.any(String) });
  });

  it('refuses an oversized body on both with 413, and registers nobody', async () => {
    const { id, api } = await newPartner();
    const document = newCpf();
    const huge = { document, name: 'M'.repeat(100_000) };
    const answers = [
      await operator().post(`/admin/v1/partners/${id}/users`, huge),
      await api.post('/sandbox/v1/users', { ...huge, usdt_micros: 0 }),
    ];
    for (const res of answers) expect(res.status).toBe(413);
    expect(await createKey(api, document)).toMatchObject({ status: 404, body: { status: 'user_not_found' } });
  });
});
