import { SERVICE_CATALOGUE, SERVICE_NAMES, ServiceName } from '@partner/contracts';
import { createHmac } from 'node:crypto';
import { pollUntil, requireEnv, withdrawalRequest } from '@partner/testing';
import { gatewayAdminUrl, listEvents, newPartner, newUser } from './support/sandbox';

/**
 * What an operator scrapes (docs/operations/observability.md: "Metrics"): every app's /metrics in Prometheus' text format,
 * with the outbox backlog of each service that has an outbox. npm test passes the services' health
 * URLs in SERVICE_HEALTH_URLS.
 */
const healthUrls = (): Record<string, string> => JSON.parse(requireEnv('SERVICE_HEALTH_URLS'));
const OUTBOX_SERVICES: string[] = SERVICE_NAMES.filter((name: ServiceName) => SERVICE_CATALOGUE[name].outbox);

async function metricsOf(url: string): Promise<string> {
  const res = await fetch(`${url}/metrics`);
  if (res.status !== 200) throw new Error(`${url}/metrics answered ${res.status}`);
  return res.text();
}

/** The value of an unlabelled-but-for-app sample, e.g. outbox_pending_messages{app="withdrawals"} 0. */
function sample(text: string, name: string, app: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${name}{app="${app}"} `));
  return line === undefined ? undefined : Number(line.split(' ')[1]);
}

describe('operations: /metrics', () => {
  it('every service exposes its process metrics, and each outbox service its backlog', async () => {
    const urls = healthUrls();
    expect(Object.keys(urls).sort()).toEqual([...SERVICE_NAMES].sort());
    for (const [app, url] of Object.entries(urls)) {
      const text = await metricsOf(url);
      expect({ app, cpu: sample(text, 'process_cpu_user_seconds_total', app) }).toEqual({ app, cpu: expect.any(Number) });
      const pending = sample(text, 'outbox_pending_messages', app);
      const age = sample(text, 'outbox_oldest_pending_age_seconds', app);
      if (OUTBOX_SERVICES.includes(app)) {
        expect({ app, pending, age }).toEqual({ app, pending: expect.any(Number), age: expect.any(Number) });
        expect(pending).toBeGreaterThanOrEqual(0);
      } else {
        expect({ app, pending, age }).toEqual({ app, pending: undefined, age: undefined });
      }
    }
  });

  it("the withdrawals outbox drains: once a withdrawal's events are in the feed, nothing of it is pending", async () => {
    const { api } = await newPartner();
    const document = await newUser(api, 10_000_000);
    const created = await api.post<{ id: number }>('/partner/v1/withdrawals/usdt', withdrawalRequest(document));
    expect(created.status).toBe(201);
    await pollUntil(
      'the settled event',
      () => listEvents(api, 'limit=1000'),
      (events) => events.some((e) => e.resource_id === String(created.body.id) && e.state === 'settled'),
    );

    // Other suites' traffic may still be in flight: poll until the backlog is empty.
    const url = healthUrls().withdrawals;
    const drained = await pollUntil(
      'an empty withdrawals outbox',
      () => metricsOf(url),
      (t) => sample(t, 'outbox_pending_messages', 'withdrawals') === 0,
    );
    expect(sample(drained, 'outbox_oldest_pending_age_seconds', 'withdrawals')).toBe(0);
  });

  it('the services that keep refused commands prune them on a timer: their refusal-retention job runs', async () => {
    // The first run comes 10 s after start (libs/kafka refused-commands.ts); the suites before this one take longer.
    for (const app of ['withdrawals', 'pix-keys']) {
      const runs = (text: string) => Number(/^periodic_job_runs_total\{[^}]*job="refusal-retention"[^}]*\} (\d+)/m.exec(text)?.[1] ?? 0);
      const text = await pollUntil(
        `${app}'s refusal-retention job run`,
        () => metricsOf(healthUrls()[app]),
        (t) => runs(t) >= 1,
        { timeoutMs: 30_000 },
      );
      expect(/^periodic_job_failures_total\{[^}]*job="refusal-retention"[^}]*\} (\d+)/m.exec(text)?.[1] ?? '0').toBe('0');
    }
  });

  it("the gateway's /metrics counts partner requests by route pattern and status", async () => {
    const { api } = await newPartner();
    await api.get('/partner/v1/events?limit=1');
    const text = await (await fetch(`${gatewayAdminUrl()}/metrics`)).text();
    const line = text
      .split('\n')
      .find((l) =>
        l.startsWith('http_request_duration_seconds_count{app="gateway",method="GET",route="/partner/v1/events",status="200"} '),
      );
    expect(Number(line?.split(' ')[1])).toBeGreaterThanOrEqual(1);
  });
});

describe('operations: /readyz of each service', () => {
  it('is ready when its database answers and its Kafka consumers are members of their groups', async () => {
    for (const [app, url] of Object.entries(healthUrls())) {
      const res = await fetch(`${url}/readyz`);
      const body = (await res.json()) as {
        status: string;
        info: Record<string, { status: string; groups?: Record<string, { joined: boolean }> }>;
      };
      expect({ app, status: res.status, database: body.info.database?.status, consumers: body.info.kafka_consumers?.status }).toEqual({
        app,
        status: 200,
        database: 'up',
        consumers: 'up',
      });
      // Its groups (events: `<service>`, requests: `<service>.requests`), every one joined.
      const groups = body.info.kafka_consumers.groups ?? {};
      expect(Object.keys(groups).length).toBeGreaterThan(0);
      for (const [group, state] of Object.entries(groups)) {
        expect({ app, group: group.split('.')[0], joined: state.joined }).toEqual({ app, group: app, joined: true });
      }
    }
  });
});

describe('operations: direct queries (docs/architecture.md: "Direct queries")', () => {
  // Signed with the stack's INTERNAL_SECRET, as the gateway signs them (internal-trust.spec.ts: unsigned ones are 401).
  const query = (url: string, topic: string, body: unknown) => {
    const text = JSON.stringify(body);
    // ADR 0017's scheme, written from outside: HMAC-SHA256 over timestamp, topic, request id, partner id and body.
    const timestamp = String(Date.now());
    const mac = createHmac('sha256', requireEnv('INTERNAL_SECRET')).update([timestamp, topic, '', '', text].join('\n')).digest('hex');
    const signature = { 'x-internal-timestamp': timestamp, 'x-internal-signature': `v1=${mac}` };
    return fetch(`${url}/internal/v1/queries/${topic}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...signature },
      body: text,
    });
  };

  it("the events service answers the feed query on its internal port exactly as the gateway's GET /events shows it", async () => {
    const { api, id: partnerId } = await newPartner();
    const document = await newUser(api, 10_000_000);
    const created = await api.post<{ id: number }>('/partner/v1/withdrawals/usdt', withdrawalRequest(document));
    expect(created.status).toBe(201);
    const viaGateway = await pollUntil(
      'the created event',
      () => listEvents(api, 'limit=10'),
      (events) => events.length > 0,
    );

    const res = await query(healthUrls().events, 'events.query.list.v1', { partner_id: partnerId, limit: 10 });
    expect(res.status).toBe(200);
    const envelope = (await res.json()) as { response: { ok: boolean; data: { events: Array<{ id: string }> } } };
    expect(envelope.response.ok).toBe(true);
    expect(envelope.response.data.events.map((e) => e.id).slice(0, viaGateway.length)).toEqual(viaGateway.map((e) => e.id));
  });

  it('commands are never reachable that way: 404, and nothing changes', async () => {
    const { api, id: partnerId } = await newPartner();
    const document = await newUser(api, 10_000_000);
    await api.post('/partner/v1/withdrawals/usdt', withdrawalRequest(document));
    const events = await pollUntil(
      'an event',
      () => listEvents(api, 'delivered=false'),
      (list) => list.length > 0,
    );
    const urls = healthUrls();
    expect((await query(urls.events, 'events.command.ack.v1', { partner_id: partnerId, ids: events.map((e) => e.id) })).status).toBe(404);
    expect((await query(urls.withdrawals, 'withdrawals.command.create.v1', {})).status).toBe(404);
    expect((await query(urls.events, 'inflows.query.list.v1', { partner_id: partnerId })).status).toBe(404);
    // None was acknowledged: every event listed before is still undelivered (the withdrawal may have moved on meanwhile).
    expect((await listEvents(api, 'delivered=false')).map((e) => e.id)).toEqual(expect.arrayContaining(events.map((e) => e.id)));
  });
});
