import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { tracing } from '@opentelemetry/sdk-node';
import type { KafkaMessage } from './kafka-port';

type MessageHeaders = NonNullable<KafkaMessage['headers']>;
import { startTracing, stopTracing } from '@partner/tracing';
import { RequestContexts } from '@partner/runtime';
import { currentTraceparent, endSends, processSpan, sendSpan, sendSpanFromTraceparent, traceHeaders, tracedSend } from './trace-context';

/** Headers as a consumer receives them: kafkajs hands them over as Buffers. */
const received = (headers: Record<string, string>): MessageHeaders =>
  Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, Buffer.from(v)]));

const COMMAND = 'withdrawals.command.create.v1';
const EVENT = 'withdrawals.event.state-changed.v1';

describe('trace context across Kafka, with no SDK started (tracing off)', () => {
  it('writes no header, stores no traceparent and still runs the handler', async () => {
    const sent = sendSpan(COMMAND, 'user-1');
    expect(sent.headers).toEqual({});
    endSends([sent]);
    expect(
      await processSpan(COMMAND, received({ traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' }), null, async () =>
        currentTraceparent(),
      ),
    ).toBeNull();
    expect(sendSpanFromTraceparent(EVENT, 'k', null)).toBeUndefined();
  });
});

describe('trace context across Kafka, with the SDK started (in-memory exporter)', () => {
  const exporter = new tracing.InMemorySpanExporter();

  beforeAll(() => {
    const started = startTracing('kafka-spec', { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9' }, [
      new tracing.SimpleSpanProcessor(exporter),
    ]);
    expect(started).toBe(true);
  });
  afterAll(() => stopTracing());
  beforeEach(() => exporter.reset());

  it('starts nothing when no OTLP endpoint is configured, or when the SDK is disabled', () => {
    expect(startTracing('other', {})).toBe(false);
    expect(startTracing('other', { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9', OTEL_SDK_DISABLED: 'true' })).toBe(false);
  });

  it('makes a request, its handling, the event it writes to the outbox and that event’s projection one trace', async () => {
    const tracer = trace.getTracer('spec');
    // The gateway's HTTP span, as the HTTP instrumentation would open it.
    const root = tracer.startSpan('POST /partner/v1/withdrawals', { kind: SpanKind.SERVER });
    const command = context.with(trace.setSpan(context.active(), root), () => sendSpan(COMMAND, 'user-1'));
    endSends([command]);
    root.end();

    // The withdrawals service handles the command and writes an outbox row with the current traceparent.
    const stored = await processSpan(COMMAND, received(command.headers), 'user-1', async () => currentTraceparent());
    expect(stored).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);

    // Later, outside any request, its relay publishes the row; the events service projects it.
    const event = sendSpanFromTraceparent(EVENT, 'user-1', stored);
    endSends([event]);
    await processSpan(EVENT, received(event?.headers ?? {}), 'user-1', async () => undefined);

    const spans = exporter.getFinishedSpans();
    const span = (name: string) => {
      const found = spans.find((s) => s.name === name);
      if (!found) throw new Error(`no span ${name} among ${spans.map((s) => s.name).join(', ')}`);
      return found;
    };
    expect(spans.map((s) => s.name).sort()).toEqual(
      [`process ${COMMAND}`, `process ${EVENT}`, `send ${COMMAND}`, `send ${EVENT}`, 'POST /partner/v1/withdrawals'].sort(),
    );
    const traceId = root.spanContext().traceId;
    expect(spans.every((s) => s.spanContext().traceId === traceId)).toBe(true);
    const parentOf = (name: string) => span(name).parentSpanContext?.spanId;
    const idOf = (name: string) => span(name).spanContext().spanId;
    expect(parentOf(`send ${COMMAND}`)).toBe(idOf('POST /partner/v1/withdrawals'));
    expect(parentOf(`process ${COMMAND}`)).toBe(idOf(`send ${COMMAND}`));
    expect(parentOf(`send ${EVENT}`)).toBe(idOf(`process ${COMMAND}`));
    expect(parentOf(`process ${EVENT}`)).toBe(idOf(`send ${EVENT}`));
    expect(span(`send ${COMMAND}`).kind).toBe(SpanKind.PRODUCER);
    expect(span(`process ${EVENT}`).kind).toBe(SpanKind.CONSUMER);
    expect(span(`send ${EVENT}`).attributes).toMatchObject({
      'messaging.system': 'kafka',
      'messaging.destination.name': EVENT,
      'messaging.kafka.message.key': 'user-1',
    });
  });

  it('starts a new trace for a message that carries none, and marks a failed handler’s span', async () => {
    await expect(
      processSpan(EVENT, undefined, null, async () => {
        throw new Error('database away');
      }),
    ).rejects.toThrow('database away');
    const [span] = exporter.getFinishedSpans();
    expect(span.parentSpanContext).toBeUndefined();
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: 'database away' });
    expect(span.events.map((e) => e.name)).toContain('exception');
  });

  it('ends a send span when its send settles, marked failed when the broker refused it', async () => {
    const root = trace.getTracer('spec').startSpan('a request');
    const [ok, refused] = context.with(trace.setSpan(context.active(), root), () => [sendSpan(COMMAND, 'a'), sendSpan(COMMAND, 'b')]);
    await expect(tracedSend([ok], Promise.resolve('sent'))).resolves.toBe('sent');
    await expect(tracedSend([refused], Promise.reject(new Error('broker away')))).rejects.toThrow('broker away');
    root.end();
    const status = (key: string) => exporter.getFinishedSpans().find((s) => s.attributes['messaging.kafka.message.key'] === key)?.status;
    expect(status('a')).toEqual({ code: SpanStatusCode.UNSET });
    expect(status('b')).toEqual({ code: SpanStatusCode.ERROR, message: 'broker away' });
  });

  it('leaves the trace in RequestContexts.outside(): a relay woken by one request serves many', async () => {
    const span = trace.getTracer('spec').startSpan('a request');
    const inside = context.with(trace.setSpan(context.active(), span), () => ({
      here: currentTraceparent(),
      outside: RequestContexts.outside(() => currentTraceparent()),
    }));
    span.end();
    expect(inside.here).toContain(span.spanContext().traceId);
    expect(inside.outside).toBeNull();
  });

  it('propagates an unsampled context as unsampled, so a service records nothing the caller did not sample', async () => {
    const unsampled = received({ traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-00' });
    const headers = await processSpan(COMMAND, unsampled, null, async () => traceHeaders());
    expect(headers.traceparent).toMatch(/^00-0af7651916cd43dd8448eb211c80319c-[0-9a-f]{16}-00$/);
    expect(exporter.getFinishedSpans()).toHaveLength(0);
  });
});
