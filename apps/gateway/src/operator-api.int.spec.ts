import { Topics } from '@partner/contracts';
import { newCpf, newUuid, requireEnv } from '@partner/testing';
import { randomBytes } from 'node:crypto';
import { Pool } from 'pg';
import { AuditLogEntryView } from './audit/audit.dto';
import { FakeServices } from './fake-services.spec-support';
import { GatewayUnderTest } from './gateway-app.spec-support';

// Integration: the operator API (/admin/v1) of a production gateway (SANDBOX=false) against the real
// database, with the services played in memory (FakeServices), and the sandbox helpers of a sandbox
// gateway on top of the same use cases. Cross-instance revocation over Kafka is in
// api-key-revocation.int.spec.ts.

const ADMIN_KEY = `adm_int_${randomBytes(24).toString('base64url')}`;
const services = new FakeServices();
// The operator rate limit is tested on an instance of its own (below); this one must never throttle.
const gateway = new GatewayUnderTest({
  bus: services,
  env: { SANDBOX: 'false', ADMIN_API_KEY: ADMIN_KEY, ADMIN_RATE_LIMIT_PER_SECOND: '100000', ADMIN_RATE_LIMIT_BURST: '100000' },
});
const db = new Pool({ connectionString: requireEnv('DATABASE_URL'), max: 2 });

const admin = { 'x-admin-key': ADMIN_KEY };
const call = (method: 'GET' | 'POST' | 'DELETE', url: string, headers: Record<string, string> = admin, payload?: unknown) =>
  gateway.send(method, url, headers, payload);

type AuditEntry = AuditLogEntryView;

/** The audit entry of a request, by the X-Request-Id it was sent with. */
async function auditOf(requestId: string): Promise<AuditEntry | undefined> {
  const { rows } = await db.query<AuditEntry>(
    'SELECT id::int AS id, operator_key_id, operator_key_prefix, method, route, partner_id, key_id, document, status_code, request_id FROM gateway.audit_log WHERE request_id = $1',
    [requestId],
  );
  return rows[0];
}

/** gateway_auth_failures_total{api="operator",status="401"} on the gateway's /metrics. */
async function operator401s(): Promise<number> {
  const res = await gateway.app.inject({ method: 'GET', url: '/metrics' });
  const line = res.body
    .split('\n')
    .find((l) => l.startsWith('gateway_auth_failures_total{') && l.includes('api="operator"') && l.includes('status="401"'));
  return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : 0;
}

async function newPartner(name = 'operator int'): Promise<string> {
  const res = await call('POST', '/admin/v1/partners', admin, { name });
  expect(res.status).toBe(201);
  return String(res.body.id);
}

async function newKey(partnerId: string): Promise<{ id: string; api_key: string }> {
  const res = await call('POST', `/admin/v1/partners/${partnerId}/api-keys`);
  expect(res.status).toBe(201);
  return res.body as { id: string; api_key: string };
}

/** A partner route that reaches a service: 404 from the fake withdrawals service means the key was accepted. */
const partnerCall = (apiKey: string) => call('GET', '/partner/v1/withdrawals/usdt/1', { 'x-api-key': apiKey });

beforeAll(() => gateway.start(), 90_000);
afterAll(async () => {
  await gateway.stop();
  await db.end();
}, 30_000);

describe('operator API authentication', () => {
  it.each([
    ['no key', {}],
    ['a wrong key', { 'x-admin-key': `adm_${'w'.repeat(40)}` }],
    ['the key in X-API-Key', { 'x-api-key': ADMIN_KEY }],
  ])('refuses %s with 401 {error: unauthorized}: counted on /metrics, not written to the audit log', async (_what, headers) => {
    const requestId = `int-${newUuid()}`;
    const before = await operator401s();
    const res = await call('POST', '/admin/v1/partners', { ...headers, 'x-request-id': requestId }, { name: 'x' });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'unauthorized', message: 'missing or unknown X-Admin-Key', request_id: requestId });
    expect(await operator401s()).toBe(before + 1);
    // The 401 is answered once its onSend hooks have run, so an audit row would be there by now.
    expect(await auditOf(requestId)).toBeUndefined();
  });

  it('never opens to a partner key, and an operator key never opens a partner route', async () => {
    const partnerId = await newPartner();
    const { api_key } = await newKey(partnerId);
    expect((await partnerCall(api_key)).status).toBe(404);

    for (const headers of [{ 'x-admin-key': api_key }, { 'x-api-key': api_key }] as Array<Record<string, string>>) {
      const res = await call('GET', `/admin/v1/partners/${partnerId}/api-keys`, headers);
      expect({ headers, status: res.status, error: res.body.error }).toEqual({ headers, status: 401, error: 'unauthorized' });
    }
    // The operator key as a partner key, or in its own header on a partner route.
    expect(await partnerCall(ADMIN_KEY)).toMatchObject({ status: 401, body: { error: 'unauthorized' } });
    expect(await call('GET', '/partner/v1/withdrawals/usdt/1', admin)).toMatchObject({ status: 401, body: { error: 'unauthorized' } });
  });

  it('answers an unknown /admin/v1 path 404 in the {error} shape, audited as unmatched', async () => {
    const requestId = `int-${newUuid()}`;
    const res = await call('GET', '/admin/v1/nothing/here', { ...admin, 'x-request-id': requestId });
    expect(res).toMatchObject({ status: 404, body: { error: 'not_found', request_id: requestId } });
    expect(await auditOf(requestId)).toMatchObject({ route: 'unmatched', method: 'GET', status_code: 404 });
  });

  it('audits what is refused before routing or validation too: a bad URL, malformed JSON, another content type', async () => {
    const cases: Array<[string, string, Record<string, string>, string | undefined, number]> = [
      ['GET', '/admin/v1/partners/%zz/api-keys', {}, undefined, 400],
      ['POST', '/admin/v1/partners', { 'content-type': 'application/json' }, '{', 400],
      ['POST', '/admin/v1/partners', { 'content-type': 'text/plain' }, 'acme', 415],
    ];
    for (const [method, url, headers, payload, status] of cases) {
      const requestId = `int-${newUuid()}`;
      const res = await gateway.app.inject({
        method: method as 'GET' | 'POST',
        url,
        headers: { ...admin, ...headers, 'x-request-id': requestId },
        payload,
      });
      expect({ url, status: res.statusCode, body: res.json() }).toEqual({
        url,
        status,
        body: expect.objectContaining({ error: expect.any(String), request_id: requestId }),
      });
      expect(await auditOf(requestId)).toMatchObject({ method, status_code: status });
    }
  });
});

describe('partners and their API keys', () => {
  it('creates a partner: 201 {id, name, created_at}', async () => {
    const res = await call('POST', '/admin/v1/partners', admin, { name: 'acme', rate_limit_per_second: 5 });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), name: 'acme', created_at: expect.any(Number) });
    expect(Math.abs((res.body.created_at as number) - Date.now() / 1000)).toBeLessThan(60);
  });

  it('issues live keys (several active at once), lists them without secrets, revokes one: 401 at once, the other still works', async () => {
    const partnerId = await newPartner();
    const first = await call('POST', `/admin/v1/partners/${partnerId}/api-keys`, admin, {});
    expect(first.status).toBe(201);
    expect(first.body).toEqual({
      id: expect.any(String),
      api_key: expect.stringMatching(/^pk_live_[A-Za-z0-9_-]{43}$/),
      prefix: expect.any(String),
      created_at: expect.any(Number),
    });
    expect(String(first.body.api_key).startsWith(String(first.body.prefix))).toBe(true);
    const second = await newKey(partnerId);
    const [a, b] = [String(first.body.api_key), second.api_key];
    expect((await partnerCall(a)).status).toBe(404);
    expect((await partnerCall(b)).status).toBe(404);

    const listed = await call('GET', `/admin/v1/partners/${partnerId}/api-keys`);
    expect(listed.status).toBe(200);
    const keys = listed.body.api_keys as Array<Record<string, unknown>>;
    expect(keys.map((k) => k.id)).toEqual([first.body.id, second.id]);
    for (const key of keys) expect(Object.keys(key).sort()).toEqual(['created_at', 'id', 'last_used_at', 'prefix', 'revoked_at']);
    // Both were used once (a miss of the key cache): recorded.
    expect(keys.map((k) => typeof k.last_used_at)).toEqual(['number', 'number']);
    expect(keys.map((k) => k.revoked_at)).toEqual([null, null]);
    expect(JSON.stringify(listed.body)).not.toContain(a.slice(16));

    // a is cached by now: the revocation must still be immediate on this instance.
    const revoked = await call('DELETE', `/admin/v1/partners/${partnerId}/api-keys/${String(first.body.id)}`);
    expect(revoked.status).toBe(200);
    expect(revoked.body).toMatchObject({ id: first.body.id, revoked_at: expect.any(Number) });
    expect((await partnerCall(a)).status).toBe(401);
    expect((await partnerCall(b)).status).toBe(404);

    const again = await call('DELETE', `/admin/v1/partners/${partnerId}/api-keys/${String(first.body.id)}`);
    expect([again.status, again.body]).toEqual([200, revoked.body]);
    // One revocation, one event in the outbox (written in the revoking transaction).
    const { rows } = await db.query('SELECT topic, key, payload FROM gateway.outbox_messages WHERE key = $1', [first.body.id]);
    expect(rows).toEqual([
      {
        topic: Topics.GatewayApiKeyRevoked,
        key: first.body.id,
        payload: { partner_id: partnerId, key_id: first.body.id, revoked_at: expect.any(String) },
      },
    ]);
  });

  it('answers 404 for an unknown key or partner, 400 for a malformed id, in the {error} shape', async () => {
    const partnerId = await newPartner();
    const cases: Array<[string, 'GET' | 'POST' | 'DELETE', number, Record<string, unknown>]> = [
      [`/admin/v1/partners/${partnerId}/api-keys/${newUuid()}`, 'DELETE', 404, { error: 'not_found' }],
      [`/admin/v1/partners/${newUuid()}/api-keys`, 'GET', 404, { error: 'partner_not_found' }],
      [`/admin/v1/partners/${newUuid()}/api-keys`, 'POST', 404, { error: 'partner_not_found' }],
      [`/admin/v1/partners/${newUuid()}/api-keys/${newUuid()}`, 'DELETE', 404, { error: 'partner_not_found' }],
      ['/admin/v1/partners/not-a-uuid/api-keys', 'GET', 400, { error: 'invalid_request', field: 'partner_id' }],
      [`/admin/v1/partners/${partnerId}/api-keys/42`, 'DELETE', 400, { error: 'invalid_request', field: 'key_id' }],
    ];
    for (const [url, method, status, body] of cases) {
      const res = await call(method, url);
      expect({ url, method, status: res.status, body: res.body }).toEqual({
        url,
        method,
        status,
        body: expect.objectContaining({ ...body, message: expect.any(String) }),
      });
    }
    const withBody = await call('POST', `/admin/v1/partners/${partnerId}/api-keys`, admin, { name: 'x' });
    expect(withBody).toMatchObject({ status: 400, body: { error: 'invalid_request', field: 'name' } });
    const badPartner = await call('POST', '/admin/v1/partners', admin, { name: '' });
    expect(badPartner).toMatchObject({ status: 400, body: { error: 'invalid_request', field: 'name' } });
  });
});

describe('users and balances', () => {
  let partnerId: string;
  beforeAll(async () => {
    partnerId = await newPartner('users');
  });
  const users = () => `/admin/v1/partners/${partnerId}/users`;

  it('registers a user in every service: 201, then 200 with the same created_at', async () => {
    const document = newCpf();
    const first = await call('POST', users(), admin, { document });
    expect(first).toMatchObject({
      status: 201,
      body: { document, created_at: expect.any(Number), account: { ispb: '99999999', branch: '0001', type: 'TRAN' } },
    });
    expect(Object.keys(first.body).sort()).toEqual(['account', 'created_at', 'document']);
    for (const topic of [Topics.WithdrawalsUpsertUser, Topics.InflowsUpsertUser]) {
      expect(services.sentTo(topic)).toContainEqual({ partner_id: partnerId, document });
    }
    // Pix keys gets the account inflows opened (DICT records it with a key).
    expect(services.sentTo(Topics.PixKeysUpsertUser)).toContainEqual({
      partner_id: partnerId,
      document,
      account: expect.objectContaining({ ispb: '99999999', branch: '0001', type: 'TRAN' }),
    });
    const second = await call('POST', users(), admin, { document });
    expect([second.status, second.body]).toEqual([200, first.body]);
  });

  it('credits once per idempotency key (201, then 200 and no second credit), and reads the balance', async () => {
    const document = newCpf();
    await call('POST', users(), admin, { document });
    const credit = { usdt_micros: 10_000_000, idempotency_key: `dep-${newUuid()}`, reference: 'TED #1' };
    const first = await call('POST', `${users()}/${document}/credits`, admin, credit);
    expect([first.status, first.body]).toEqual([201, { available_usdt_micros: 10_000_000, held_usdt_micros: 0 }]);
    const replay = await call('POST', `${users()}/${document}/credits`, admin, credit);
    expect([replay.status, replay.body]).toEqual([200, { available_usdt_micros: 10_000_000, held_usdt_micros: 0 }]);
    const reused = await call('POST', `${users()}/${document}/credits`, admin, { ...credit, usdt_micros: 1 });
    expect(reused).toMatchObject({ status: 422, body: { error: 'idempotency_key_reused' } });
    expect(services.sentTo(Topics.WithdrawalsCreditAccount)).toContainEqual({
      partner_id: partnerId,
      document,
      ...credit,
      // The key that credited and its client's address, for the ledger line and the credit's audit row.
      operators: expect.stringMatching(/^environment \(env_[0-9a-f]{12}\)$/),
      client_address: '127.0.0.1',
    });

    const balance = await call('GET', `${users()}/${document}/balance`);
    expect([balance.status, balance.body]).toEqual([
      200,
      { available_usdt_micros: 10_000_000, held_usdt_micros: 0, available_brl_cents: 0, blocked_brl_cents: 0 },
    ]);
  });

  it("registers the holder's name with inflows and pix-keys; refuses one with control characters", async () => {
    const document = newCpf();
    expect((await call('POST', users(), admin, { document, name: 'Maria Souza' })).status).toBe(201);
    for (const topic of [Topics.InflowsUpsertUser, Topics.PixKeysUpsertUser])
      expect(services.sentTo(topic)).toContainEqual(expect.objectContaining({ partner_id: partnerId, document, name: 'Maria Souza' }));
    expect(services.sentTo(Topics.WithdrawalsUpsertUser)).toContainEqual({ partner_id: partnerId, document });
    for (const name of ['Maria\u0007', 'Maria\nSouza', '\u202EMaria', ' ', ''])
      expect(await call('POST', users(), admin, { document, name })).toMatchObject({
        status: 400,
        body: { error: 'invalid_request', field: 'name' },
      });
  });

  it('answers 404 user_not_found / partner_not_found, and 400 for a bad CPF (path or body) or credit', async () => {
    const unknownUser = newCpf();
    const credit = { usdt_micros: 1, idempotency_key: 'k1', reference: 'r' };
    const cases: Array<[string, 'GET' | 'POST', unknown, number, Record<string, unknown>]> = [
      [`${users()}/${unknownUser}/balance`, 'GET', undefined, 404, { error: 'user_not_found' }],
      [`${users()}/${unknownUser}/credits`, 'POST', credit, 404, { error: 'user_not_found' }],
      [`/admin/v1/partners/${newUuid()}/users`, 'POST', { document: newCpf() }, 404, { error: 'partner_not_found' }],
      [`/admin/v1/partners/${newUuid()}/users/${unknownUser}/balance`, 'GET', undefined, 404, { error: 'partner_not_found' }],
      [users(), 'POST', { document: '52998224724' }, 400, { error: 'invalid_document', field: 'document' }],
      [users(), 'POST', {}, 400, { error: 'invalid_document', field: 'document' }],
      ['/admin/v1/partners/nope/users', 'POST', { document: newCpf() }, 400, { error: 'invalid_request', field: 'partner_id' }],
      [`${users()}/52998224724/balance`, 'GET', undefined, 400, { error: 'invalid_document', field: 'document' }],
      [`${users()}/123/credits`, 'POST', credit, 400, { error: 'invalid_document', field: 'document' }],
      // The path is checked before the body.
      [`${users()}/123/credits`, 'POST', { usdt_micros: 0 }, 400, { error: 'invalid_document', field: 'document' }],
      [`${users()}/${unknownUser}/credits`, 'POST', { ...credit, usdt_micros: 0 }, 400, { error: 'invalid_request', field: 'usdt_micros' }],
      [
        `${users()}/${unknownUser}/credits`,
        'POST',
        { ...credit, usdt_micros: '10' },
        400,
        { error: 'invalid_request', field: 'usdt_micros' },
      ],
      [
        `${users()}/${unknownUser}/credits`,
        'POST',
        { ...credit, usdt_micros: 1.5 },
        400,
        { error: 'invalid_request', field: 'usdt_micros' },
      ],
      [
        `${users()}/${unknownUser}/credits`,
        'POST',
        { usdt_micros: 1, reference: 'r' },
        400,
        { error: 'invalid_request', field: 'idempotency_key' },
      ],
      [`${users()}/${unknownUser}/credits`, 'POST', { ...credit, reference: '' }, 400, { error: 'invalid_request', field: 'reference' }],
      [`${users()}/${unknownUser}/credits`, 'POST', { ...credit, extra: 1 }, 400, { error: 'invalid_request', field: 'extra' }],
    ];
    for (const [url, method, payload, status, body] of cases) {
      const res = await call(method, url, admin, payload);
      expect({ url, payload, status: res.status, body: res.body }).toEqual({
        url,
        payload,
        status,
        body: expect.objectContaining({ ...body, message: expect.any(String) }),
      });
    }
  });
});

describe("the cancel of a payout's nonce", () => {
  it('hands the withdrawals service the withdrawal, the note and the operator key; answers the payout, audited', async () => {
    const requestId = `int-${newUuid()}`;
    const res = await call(
      'POST',
      '/admin/v1/payouts/42/cancel',
      { ...admin, 'x-request-id': requestId },
      { note: 'the node keeps refusing it' },
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      withdrawal_id: 42,
      network: 'MATIC',
      state: 'sent',
      payout_state: 'cancelling',
      reason: expect.stringMatching(/\(env_[0-9a-f]{12}\): the node keeps refusing it$/),
      from_address: `0x${'11'.repeat(20)}`,
      nonce: 7,
      tx_hash: `0x${'ab'.repeat(32)}`,
    });
    expect(services.sentTo(Topics.WithdrawalsCancelPayout).at(-1)).toEqual({
      withdrawal_id: 42,
      note: 'the node keeps refusing it',
      by: expect.stringMatching(/^.+ \(env_[0-9a-f]{12}\)$/),
      asked_at: expect.any(String),
    });
    expect(await auditOf(requestId)).toMatchObject({ method: 'POST', route: '/admin/v1/payouts/:withdrawal_id/cancel', status_code: 200 });
  });

  it('answers 404 not_found, 409 invalid_transition, and 400 with the field for a malformed id or note, asking nothing then', async () => {
    expect(await call('POST', '/admin/v1/payouts/404/cancel', admin, { note: 'x' })).toMatchObject({
      status: 404,
      body: { error: 'not_found', message: 'no withdrawal 404' },
    });
    expect(await call('POST', '/admin/v1/payouts/409/cancel', admin, { note: 'x' })).toMatchObject({
      status: 409,
      body: { error: 'invalid_transition', message: expect.stringContaining('only a signed payout not yet mined can be cancelled') },
    });
    const asked = services.sentTo(Topics.WithdrawalsCancelPayout).length;
    for (const [url, body, field] of [
      ['/admin/v1/payouts/abc/cancel', { note: 'x' }, 'withdrawal_id'],
      ['/admin/v1/payouts/0/cancel', { note: 'x' }, 'withdrawal_id'],
      ['/admin/v1/payouts/9007199254740992/cancel', { note: 'x' }, 'withdrawal_id'],
      ['/admin/v1/payouts/1/cancel', {}, 'note'],
      ['/admin/v1/payouts/1/cancel', { note: '' }, 'note'],
      ['/admin/v1/payouts/1/cancel', { note: 'x'.repeat(1001) }, 'note'],
      ['/admin/v1/payouts/1/cancel', { note: 'x', extra: 1 }, 'extra'],
    ] as const) {
      const res = await call('POST', url, admin, body);
      expect({ url, status: res.status, body: res.body }).toEqual({
        url,
        status: 400,
        body: expect.objectContaining({ error: 'invalid_request', field, message: expect.any(String) }),
      });
    }
    expect(services.sentTo(Topics.WithdrawalsCancelPayout)).toHaveLength(asked);
  });
});

describe('audit log', () => {
  it('records every call with its operator, route pattern, path parameters, status and request id', async () => {
    const partnerId = await newPartner('audited');
    const { id: keyId } = await newKey(partnerId);
    const requestId = `int-${newUuid()}`;
    await call('DELETE', `/admin/v1/partners/${partnerId}/api-keys/${keyId}`, { ...admin, 'x-request-id': requestId });

    const res = await call('GET', `/admin/v1/audit-log?partner_id=${partnerId}`);
    expect(res.status).toBe(200);
    const entries = res.body.entries as AuditEntry[];
    expect(entries.map((e) => [e.method, e.route, e.status_code])).toEqual([
      ['DELETE', '/admin/v1/partners/:partner_id/api-keys/:key_id', 200],
      ['POST', '/admin/v1/partners/:partner_id/api-keys', 201],
    ]);
    expect(entries[0]).toEqual({
      id: expect.any(Number),
      occurred_at: expect.any(Number),
      operator_key_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      operator_key_prefix: expect.stringMatching(/^env_[0-9a-f]{12}$/),
      method: 'DELETE',
      route: '/admin/v1/partners/:partner_id/api-keys/:key_id',
      partner_id: partnerId,
      key_id: keyId,
      document: null,
      status_code: 200,
      request_id: requestId,
      usdt_micros: null,
      client_address: '127.0.0.1',
    });
    expect(res.body.next_cursor).toBeNull();
  });

  it('pages newest first with limit and before=<next_cursor>', async () => {
    const partnerId = await newPartner('paged');
    for (let i = 0; i < 4; i++) await call('GET', `/admin/v1/partners/${partnerId}/api-keys`);
    const seen: number[] = [];
    let before: number | null | undefined;
    do {
      const res = await call('GET', `/admin/v1/audit-log?partner_id=${partnerId}&limit=2${before ? `&before=${before}` : ''}`);
      expect(res.status).toBe(200);
      seen.push(...(res.body.entries as AuditEntry[]).map((e) => e.id));
      before = res.body.next_cursor as number | null;
    } while (before);
    expect(seen).toHaveLength(4);
    expect([...seen].sort((x, y) => y - x)).toEqual(seen);

    // Without a filter: every call, the last page's oldest id as the cursor.
    const all = await call('GET', '/admin/v1/audit-log?limit=3');
    const page = all.body.entries as AuditEntry[];
    expect(page).toHaveLength(3);
    expect(all.body.next_cursor).toBe(page[2].id);
  });

  it.each(['limit=0', 'limit=201', 'limit=x', 'before=0', 'before=abc', 'partner_id=nope', 'other=1'])(
    'refuses ?%s with 400 invalid_request',
    async (query) => {
      const res = await call('GET', `/admin/v1/audit-log?${query}`);
      expect(res).toMatchObject({ status: 400, body: { error: 'invalid_request', field: query.split('=')[0] } });
    },
  );

  it('is append-only: UPDATE, DELETE and TRUNCATE are refused by the database', async () => {
    const { rows } = await db.query<{ id: string }>('SELECT id FROM gateway.audit_log ORDER BY id DESC LIMIT 1');
    expect(rows).toHaveLength(1);
    for (const statement of [
      ['UPDATE gateway.audit_log SET status_code = 200 WHERE id = $1', [rows[0].id]],
      ['DELETE FROM gateway.audit_log WHERE id = $1', [rows[0].id]],
      ['TRUNCATE gateway.audit_log', []],
    ] as const) {
      await expect(db.query(statement[0], [...statement[1]])).rejects.toThrow(/audit_log is append-only/);
    }
  });
});

describe('operator rate limit', () => {
  const limited = new GatewayUnderTest({
    bus: services,
    env: { SANDBOX: 'false', ADMIN_API_KEY: ADMIN_KEY, ADMIN_RATE_LIMIT_PER_SECOND: '1', ADMIN_RATE_LIMIT_BURST: '2' },
  });
  beforeAll(() => limited.start(), 60_000);
  afterAll(() => limited.stop(), 30_000);

  it('limits each operator key: 429 rate_limited with Retry-After past the burst, audited', async () => {
    const answers = [];
    for (let i = 0; i < 3; i++)
      answers.push(await limited.send('GET', '/admin/v1/audit-log?limit=1', { ...admin, 'x-request-id': `int-${newUuid()}` }));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 429]);
    expect(answers[2]).toMatchObject({ body: { error: 'rate_limited' }, headers: { 'retry-after': '1' } });
    expect(await auditOf(answers[2].headers['x-request-id'] as string)).toMatchObject({
      status_code: 429,
      operator_key_id: expect.any(String),
    });
  });
});

describe('sandbox helpers over the same use cases (SANDBOX=true)', () => {
  const sandbox = new GatewayUnderTest({ bus: services });
  beforeAll(() => sandbox.start(), 60_000);
  afterAll(() => sandbox.stop(), 30_000);

  it('POST /sandbox/v1/partners: 201 {id, name, api_key} with a pk_sandbox_ key that works', async () => {
    const res = await sandbox.post('/sandbox/v1/partners', { name: 'sb' }, { 'x-admin-key': GatewayUnderTest.ADMIN_KEY });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ id: expect.any(String), name: 'sb', api_key: expect.stringMatching(/^pk_sandbox_/) });
    const unnamed = await sandbox.post('/sandbox/v1/partners', {}, { 'x-admin-key': GatewayUnderTest.ADMIN_KEY });
    expect(unnamed.body.name).toBe('sandbox partner');
  });

  it('POST /sandbox/v1/users: 201 for a new user, 200 when credited again, usdt_micros 0 reads the balance', async () => {
    const apiKey = await sandbox.newPartnerKey('sandbox users');
    const document = newCpf();
    const created = await sandbox.post('/sandbox/v1/users', { document, usdt_micros: 5_000_000 }, { 'x-api-key': apiKey });
    const account = {
      ispb: '99999999',
      branch: '0001',
      number: expect.stringMatching(/^\d{9}$/),
      type: 'TRAN',
      opened_at: expect.any(Number),
    };
    expect([created.status, created.body]).toEqual([201, { document, usdt_micros: 5_000_000, account }]);
    const credited = await sandbox.post('/sandbox/v1/users', { document, usdt_micros: 1_000_000 }, { 'x-api-key': apiKey });
    expect([credited.status, credited.body]).toEqual([200, { document, usdt_micros: 6_000_000, account: created.body.account }]);
    const read = await sandbox.post('/sandbox/v1/users', { document, usdt_micros: 0 }, { 'x-api-key': apiKey });
    expect([read.status, read.body]).toEqual([200, { document, usdt_micros: 6_000_000, account: created.body.account }]);
    // Each sandbox credit is a credit of its own: a fresh idempotency key, reference "sandbox".
    const credits = services
      .sentTo(Topics.WithdrawalsCreditAccount)
      .filter((c) => (c as { document: string }).document === document) as Array<Record<string, unknown>>;
    expect(credits.map((c) => c.reference)).toEqual(['sandbox', 'sandbox']);
    expect(new Set(credits.map((c) => c.idempotency_key)).size).toBe(2);
  });
});
