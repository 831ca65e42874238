import { randomBytes } from 'node:crypto';
import { pollUntil, requireEnv, withdrawalRequest } from '@partner/testing';
import { newPartner, newUser } from './support/sandbox';
import { OtlpReceiver, ReceivedSpan, SPAN_KIND } from './support/otlp-receiver';

// Tracing (docs/operations/observability.md: "Tracing"). npm test starts the stack with OTEL_EXPORTER_OTLP_ENDPOINT pointing here
// and OTEL_TRACES_SAMPLER=parentbased_always_off: only a request that arrives with a sampled W3C
// traceparent is recorded, so the rest of the run exports nothing and this suite sees only its trace.

const USDT = 1_000_000;
const COMMAND = 'withdrawals.command.create.v1';
const EVENT = 'withdrawals.event.state-changed.v1';

let receiver: OtlpReceiver;

beforeAll(async () => {
  receiver = await OtlpReceiver.listen(Number(requireEnv('OTLP_RECEIVER_PORT')));
});
afterAll(() => receiver.close());

describe('tracing across the gateway, Kafka and the services', () => {
  it('records one withdrawal as one trace: the partner’s traceparent, the gateway, the withdrawals service, its event and the events service', async () => {
    const { api } = await newPartner();
    const document = await newUser(api, 10 * USDT);
    const traceId = randomBytes(16).toString('hex');
    const callerSpan = randomBytes(8).toString('hex');

    const created = await api
      .withHeaders({ traceparent: `00-${traceId}-${callerSpan}-01` })
      .post('/partner/v1/withdrawals/usdt', withdrawalRequest(document, { fee_choice: 'MEDIUM' }));
    expect(created.status).toBe(201);

    const find = (spans: ReceivedSpan[], service: string, kind: number, name?: string, parent?: ReceivedSpan | string) =>
      spans.find(
        (s) =>
          s.service === service &&
          s.kind === kind &&
          (name === undefined || s.name === name) &&
          (parent === undefined || s.parentSpanId === (typeof parent === 'string' ? parent : parent.spanId)),
      );
    /** The chain, each span the child of the one before; undefined while a link is missing. */
    const chain = (spans: ReceivedSpan[]) => {
      const request = find(spans, 'gateway', SPAN_KIND.server, undefined, callerSpan);
      const inGateway = (s: ReceivedSpan): boolean =>
        s.spanId === request?.spanId || spans.some((p) => p.spanId === s.parentSpanId && p.service === 'gateway' && inGateway(p));
      const send = spans.find(
        (s) => s.service === 'gateway' && s.kind === SPAN_KIND.producer && s.name === `send ${COMMAND}` && inGateway(s),
      );
      const handled = send && find(spans, 'withdrawals', SPAN_KIND.consumer, `process ${COMMAND}`, send);
      const published = handled && find(spans, 'withdrawals', SPAN_KIND.producer, `send ${EVENT}`, handled);
      const projected = published && find(spans, 'events', SPAN_KIND.consumer, `process ${EVENT}`, published);
      return { request, send, handled, published, projected };
    };
    const spans = await pollUntil(
      'the trace to reach the events service',
      async () => receiver.spansOf(traceId),
      (s) => chain(s).projected !== undefined,
      { timeoutMs: 30_000, intervalMs: 200 },
    );

    const { request, send, handled } = chain(spans);
    // The gateway's server span continues the partner's trace, and names the route it served.
    expect(request?.attributes['http.request.method'] ?? request?.attributes['http.method']).toBe('POST');
    expect(send?.attributes).toMatchObject({ 'messaging.system': 'kafka', 'messaging.destination.name': COMMAND });
    // The command's statements are in the trace, under the withdrawals service's handling of it.
    const statements = spans.filter(
      (s) =>
        s.service === 'withdrawals' && s.kind === SPAN_KIND.client && ('db.system.name' in s.attributes || 'db.system' in s.attributes),
    );
    expect(statements.length).toBeGreaterThan(0);
    expect(statements.some((s) => s.parentSpanId === handled?.spanId)).toBe(true);
    // One trace, three services (and nothing recorded under any other trace id for this request).
    expect(new Set(spans.map((s) => s.service))).toEqual(new Set(['gateway', 'withdrawals', 'events']));
  });
});
