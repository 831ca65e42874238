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

  it('leaves no instrumentation behind at stop: Fastify instances created later are not decorated again', async () => {
    const fastifyCreated = channel('fastify.initialization');
    expect(startTracing('gateway', { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9' }, [new tracing.SimpleSpanProcessor(exporter)])).toBe(true);
    expect(fastifyCreated.hasSubscribers).toBe(true);
    await stopTracing();
    expect(fastifyCreated.hasSubscribers).toBe(false);
  });
});
