import { channel } from 'node:diagnostics_channel';
import { trace } from '@opentelemetry/api';
import { tracing } from '@opentelemetry/sdk-node';
import { startTracing, stopTracing, tracingEnabled } from './tracing';

describe('tracingEnabled', () => {
  it('is on only with an OTLP endpoint, and off when the SDK is disabled', () => {
    expect(tracingEnabled({})).toBe(false);
    expect(tracingEnabled({ OTEL_EXPORTER_OTLP_ENDPOINT: '' })).toBe(false);
    expect(tracingEnabled({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toBe(true);
    expect(tracingEnabled({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' })).toBe(true);
    expect(tracingEnabled({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_SDK_DISABLED: 'TRUE' })).toBe(false);
  });
});

describe('startTracing', () => {
  /** Keeps what it was given, also after shutdown (the SDK's in-memory exporter empties itself then). */
  const exported: tracing.ReadableSpan[] = [];
  const exporter: tracing.SpanExporter = {
    export: (spans, done) => {
      exported.push(...spans);
      done({ code: 0 });
    },
    shutdown: async () => undefined,
  };
  afterAll(() => stopTracing());

  it('does nothing without an endpoint: spans stay the no-op kind', () => {
    expect(startTracing('withdrawals', {})).toBe(false);
    const span = trace.getTracer('spec').startSpan('untraced');
    expect(span.isRecording()).toBe(false);
    span.end();
  });

  it('starts the SDK once, names the service, leaves metrics and logs off, and exports what is buffered at stop', async () => {
    const env: NodeJS.ProcessEnv = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9' };
    // Batched as in production, with a delay longer than this test: only stopTracing() can export it.
    expect(startTracing('withdrawals', env, [new tracing.BatchSpanProcessor(exporter, { scheduledDelayMillis: 600_000 })])).toBe(true);
    expect(startTracing('withdrawals', env)).toBe(false);
    expect(env).toMatchObject({ OTEL_METRICS_EXPORTER: 'none', OTEL_LOGS_EXPORTER: 'none' });

    const span = trace.getTracer('spec').startSpan('recorded');
    expect(span.isRecording()).toBe(true);
    span.end();
    expect(exported).toEqual([]);

    await stopTracing();
    expect(exported.map((s) => [s.name, s.resource.attributes['service.name']])).toEqual([['recorded', 'withdrawals']]);
  });

  it('masks documents, phones and e-mails in every exported span: name, attributes, events and status', async () => {
    exported.length = 0;
    trace.disable(); // the provider an earlier test registered globally: the API keeps the first one otherwise
    expect(
      startTracing('gateway', { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9' }, [new tracing.SimpleSpanProcessor(exporter)]),
    ).toBe(true);
    const span = trace.getTracer('spec').startSpan('GET /partner/v1/users/52998224725');
    span.setAttributes({
      'url.full': 'http://gw/partner/v1/pix-in?document=529.982.247-25&limit=2',
      'messaging.kafka.message.key': 'pix_key:p1:11222333000181',
      'db.statement': 'SELECT 1 -- for maria@acme.com.br',
      phones: ['+5511987654321', 'none'],
      'http.response.status_code': 200,
    });
    span.addEvent('exception', { 'exception.message': 'duplicate +551133334444' });
    span.setStatus({ code: 2, message: 'no user 52998224725' });
    span.end();
    await stopTracing();

    const [done] = exported;
    expect(done.name).toBe('GET /partner/v1/users/[masked]');
    expect(done.attributes).toEqual({
      'url.full': 'http://gw/partner/v1/pix-in?document=[masked]&limit=2',
      'messaging.kafka.message.key': 'pix_key:p1:[masked]',
      'db.statement': 'SELECT 1 -- for [masked]',
      phones: ['[masked]', 'none'],
      'http.response.status_code': 200,
    });
    expect(done.events[0].attributes).toEqual({ 'exception.message': 'duplicate [masked]' });
    expect(done.status.message).toBe('no user [masked]');
  });

  it('leaves no instrumentation behind at stop: Fastify instances created later are not decorated again', async () => {
    const fastifyCreated = channel('fastify.initialization');
    expect(
      startTracing('gateway', { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9' }, [new tracing.SimpleSpanProcessor(exporter)]),
    ).toBe(true);
    expect(fastifyCreated.hasSubscribers).toBe(true);
    await stopTracing();
    expect(fastifyCreated.hasSubscribers).toBe(false);
  });
});
