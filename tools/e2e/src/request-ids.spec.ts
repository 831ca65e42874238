import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AppName, GATEWAY, SERVICE_NAMES } from '@partner/contracts';
import { ApiClient, newCpf, newUuid, pollUntil, requireEnv, withdrawalRequest } from '@partner/testing';
import { FeedEvent, gatewayUrl, listEvents, newPartner, newUser } from './support/sandbox';

// docs/api.md "Request ids": the X-Request-Id header, the error bodies' request_id, the id in the logs of the
// gateway and of the services, and on the feed events a request caused. The stack's app logs are read
// from STACK_LOG_DIR (npm test runs the e2e stack at LOG_LEVEL=debug and passes the folder).

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const APPS = [GATEWAY.name, ...SERVICE_NAMES];
type App = AppName;

const uniqueId = (label: string) => `${label}.${randomBytes(6).toString('hex')}`;
const withId = (id: string) => ({ 'x-request-id': id });

const logText = (app: App): string => {
  try {
    return readFileSync(join(requireEnv('STACK_LOG_DIR'), `${app}.log`), 'utf8');
  } catch {
    return '';
  }
};

/** The JSON lines of an app's log written under `requestId`. */
function linesOf(app: App, requestId: string): Array<Record<string, unknown>> {
  return logText(app)
    .split('\n')
    .filter((line) => line.includes(requestId))
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((line) => line.request_id === requestId);
}

/** Waits until the app has logged a line under `requestId` that `accept`s; answers every line under it. */
function logged(app: App, requestId: string, accept: (line: Record<string, unknown>) => boolean = () => true) {
  return pollUntil(
    `a line of the ${app} log under request id ${requestId}`,
    async () => linesOf(app, requestId),
    (lines) => lines.some(accept),
    {
      intervalMs: 250,
    },
  );
}

const eventsOf = (events: FeedEvent[], resourceId: string) => events.filter((e) => e.resource_id === resourceId);

describe('Request ids', () => {
  let api: ApiClient;
  let partnerId: string;
  let anonymous: ApiClient;

  beforeAll(async () => {
    ({ api, id: partnerId } = await newPartner('request ids'));
    anonymous = new ApiClient(gatewayUrl());
  });

  it('a sane X-Request-Id comes back in the header and in the error body', async () => {
    const ok = await api.request('GET', '/partner/v1/events?limit=1', undefined, withId('abc-123'));
    expect(ok.status).toBe(200);
    expect(ok.headers.get('x-request-id')).toBe('abc-123');

    const refused = await api.request('POST', '/partner/v1/withdrawals/usdt', { document: 'nope' }, withId('abc-123'));
    expect(refused.status).toBe(400);
    expect(refused.headers.get('x-request-id')).toBe('abc-123');
    expect(refused.body).toMatchObject({ error: 'invalid_request', request_id: 'abc-123' });

    const pixKey = await api.request('POST', '/partner/v1/pix-key', { document: '123', idempotency_key: newUuid() }, withId('abc-123'));
    expect(pixKey.status).toBe(400);
    expect(pixKey.body).toMatchObject({ status: 'invalid_document', request_id: 'abc-123' });
  });

  it('every error family and framework error carries request_id, the same as the header', async () => {
    const big = JSON.stringify({ document: 'x'.repeat(70_000) });
    const answers = [
      ['401', await anonymous.get('/partner/v1/events')],
      ['404 route', await api.get('/partner/v1/nowhere')],
      ['404 event', await api.patch(`/partner/v1/events/${newUuid()}`)],
      ['413', await api.request('POST', '/partner/v1/withdrawals/usdt', big)],
      ['415', await api.request('POST', '/partner/v1/withdrawals/usdt', 'document=1', { 'content-type': 'text/plain' })],
      ['malformed JSON', await api.request('POST', '/partner/v1/withdrawals/usdt', '{"document":')],
      ['bad URL', await api.request('DELETE', '/partner/v1/pix-key/%', { idempotency_key: newUuid() })],
      ['Pix key family', await api.request('DELETE', `/partner/v1/pix-key/${newCpf()}`, { idempotency_key: newUuid() })],
    ] as const;
    for (const [label, res] of answers) {
      const header = res.headers.get('x-request-id');
      expect({ label, status: res.status >= 400, header }).toEqual({ label, status: true, header: expect.stringMatching(UUID) });
      expect({ label, request_id: res.body.request_id }).toEqual({ label, request_id: header });
    }
  });

  it('an X-Request-Id that is not sane is replaced by a generated UUID', async () => {
    for (const sent of ['has spaces', 'x'.repeat(129), 'quote"d', 'semi;colon', '']) {
      const res = await api.request('GET', '/partner/v1/nowhere', undefined, withId(sent));
      expect({ sent, header: res.headers.get('x-request-id') }).toEqual({ sent, header: expect.stringMatching(UUID) });
      expect(res.body).toMatchObject({ request_id: res.headers.get('x-request-id') });
    }
    const longest = 'a'.repeat(128);
    expect((await api.request('GET', '/healthz', undefined, withId(longest))).headers.get('x-request-id')).toBe(longest);
  });

  it('the id and the partner reach the logs of the gateway and of the service that handled the request', async () => {
    const document = await newUser(api, 0);
    const id = uniqueId('abc-123');
    const created = await api.request('POST', '/partner/v1/pix-key', { document, idempotency_key: newUuid() }, withId(id));
    expect(created.status).toBe(202);

    const gateway = await logged('gateway', id, (line) => line.msg === 'request completed');
    expect(gateway.find((line) => line.msg === 'request completed')).toMatchObject({
      partner_id: partnerId,
      method: 'POST',
      route: '/partner/v1/pix-key',
      statusCode: 202,
    });
    const service = await logged('pix-keys', id, (line) => String(line.msg).startsWith('Handled pix-keys.command.create.v1'));
    for (const line of service) expect(line.partner_id).toBe(partnerId);

    // A direct query (the feed, over the events service's internal port) carries it too.
    const feedId = uniqueId('abc-123');
    expect((await api.request('GET', '/partner/v1/events?limit=1', undefined, withId(feedId))).status).toBe(200);
    const events = await logged('events', feedId, (line) => String(line.msg).startsWith('Handled events.query.list.v1'));
    expect(events[0].partner_id).toBe(partnerId);
  });

  it('events a request caused carry its id in the feed; later moves (the chain, the DICT, settlement) carry null', async () => {
    const document = await newUser(api, 10_000_000);
    const withdrawalId = uniqueId('withdrawal');
    const withdrawal = await api.request('POST', '/partner/v1/withdrawals/usdt', withdrawalRequest(document), withId(withdrawalId));
    expect(withdrawal.status).toBe(201);
    // A Pix sent through the simulated network: the announcement event carries the id to the inflows
    // service, which records the inflow (its `processing` event) under it.
    const pixId = uniqueId('pix-in');
    const pix = await api.request('POST', '/sandbox/v1/pix-in', { document, amount_cents: 100 }, withId(pixId));
    expect(pix.status).toBe(202);
    const endToEndId = (pix.body as { end_to_end_id: string }).end_to_end_id;

    const feed = await pollUntil(
      'the withdrawal settled and the Pix credited',
      () => listEvents(api, 'limit=1000'),
      (events) =>
        eventsOf(events, String((withdrawal.body as { id: unknown }).id)).some((e) => e.state === 'settled') &&
        eventsOf(events, endToEndId).some((e) => e.state === 'credited'),
      { timeoutMs: 30_000 },
    );
    const states = (resourceId: string) => eventsOf(feed, resourceId).map((e) => [e.state, e.request_id]);
    expect(states(String((withdrawal.body as { id: unknown }).id))).toEqual([
      ['created', withdrawalId],
      ['sent', null],
      ['settled', null],
    ]);
    expect(states(endToEndId)).toEqual([
      ['processing', pixId],
      ['approved', null],
      ['success', null],
      ['credited', null],
    ]);
  });

  it('CPFs never reach a log line, URLs included', async () => {
    const document = await newUser(api, 0);
    // The same CPF with its last check digit wrong: refused (400), yet still a partner's document.
    const mistyped = `${document.slice(0, 10)}${(Number(document[10]) + 1) % 10}`;
    const ids = { create: uniqueId('cpf'), remove: uniqueId('cpf'), invalid: uniqueId('cpf'), query: uniqueId('cpf') };
    expect((await api.request('POST', '/partner/v1/pix-key', { document, idempotency_key: newUuid() }, withId(ids.create))).status).toBe(
      202,
    );
    expect(
      (await api.request('DELETE', `/partner/v1/pix-key/${document}`, { idempotency_key: newUuid() }, withId(ids.remove))).status,
    ).toBeLessThan(500);
    expect(
      (await api.request('DELETE', `/partner/v1/pix-key/${mistyped}`, { idempotency_key: newUuid() }, withId(ids.invalid))).status,
    ).toBe(400);
    expect((await api.request('GET', `/partner/v1/pix-in?document=${document}`, undefined, withId(ids.query))).status).toBe(400);

    // Every call was logged (so the lines that could leak are written) ...
    for (const id of Object.values(ids)) await logged('gateway', id, (line) => line.msg === 'request completed');
    await logged('pix-keys', ids.remove, (line) => String(line.msg).startsWith('Handled pix-keys.command.delete.v1'));
    const removal = linesOf('gateway', ids.remove).find((line) => line.msg === 'request completed');
    expect(removal).toMatchObject({ route: '/partner/v1/pix-key/:document', url: '/partner/v1/pix-key/[masked]' });
    // ... and no app's log holds either document.
    for (const app of APPS) {
      const text = logText(app);
      expect({ app, leaks: [document, mistyped].filter((d) => text.includes(d)) }).toEqual({ app, leaks: [] });
    }
  });
});
