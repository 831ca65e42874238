import type { NodeSDK, tracing } from '@opentelemetry/sdk-node';
import { MaskingSpanProcessor } from './masking-span-processor';

type SpanProcessor = tracing.SpanProcessor;

/**
 * OpenTelemetry tracing of one app (docs/operations/observability.md: "Tracing"). Each app's `src/tracing.ts` calls `startTracing`
 * and is the first import of its main.ts: the instrumentations patch `http`, `pg` and Fastify as they
 * are loaded, so they must be in place before anything loads them.
 *
 * On only when an OTLP endpoint is configured (`OTEL_EXPORTER_OTLP_ENDPOINT` or
 * `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`) and `OTEL_SDK_DISABLED` is not `true`. Off, the SDK is not even
 * loaded: the Kafka transport's spans and headers go through the OpenTelemetry API's no-op
 * implementation, so an untraced deployment pays nothing for it.
 *
 * Everything else comes from the standard OTEL_* variables the SDK reads: the sampler
 * (`OTEL_TRACES_SAMPLER`, default parentbased_always_on), the protocol (`OTEL_EXPORTER_OTLP_PROTOCOL`,
 * default http/protobuf), headers, batching (`OTEL_BSP_*`), resource attributes.
 */
let sdk: NodeSDK | undefined;
/** The running SDK's instrumentations: the SDK's shutdown leaves them patching and subscribed. */
let instrumentations: Array<{ disable(): void }> = [];

/** Whether `env` asks for tracing. */
export function tracingEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  return !!(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) && env.OTEL_SDK_DISABLED?.toLowerCase() !== 'true';
}

/** Paths of probes and scrapes: a span per liveness probe or Prometheus scrape is noise. */
const UNTRACED_PATH = /^\/(healthz|readyz|metrics)(\/|\?|$)/;

/**
 * Starts the SDK for `serviceName` when the environment asks for it; true when it did. `spanProcessors`
 * replaces the exporter the environment configures (tests: an in-memory exporter).
 */
export function startTracing(serviceName: string, env: NodeJS.ProcessEnv = process.env, spanProcessors?: SpanProcessor[]): boolean {
  if (sdk || !tracingEnabled(env)) return false;
  // Traces only: metrics are Prometheus's (/metrics) and logs are pino's; the SDK's defaults for both
  // would start OTLP exporters nobody asked for.
  env.OTEL_METRICS_EXPORTER ??= 'none';
  env.OTEL_LOGS_EXPORTER ??= 'none';
  // require, not import: loaded only when tracing is on (see above).
  const { NodeSDK } = require('@opentelemetry/sdk-node') as typeof import('@opentelemetry/sdk-node');
  const { HttpInstrumentation } = require('@opentelemetry/instrumentation-http') as typeof import('@opentelemetry/instrumentation-http');
  const { UndiciInstrumentation } =
    require('@opentelemetry/instrumentation-undici') as typeof import('@opentelemetry/instrumentation-undici');
  const { PgInstrumentation } = require('@opentelemetry/instrumentation-pg') as typeof import('@opentelemetry/instrumentation-pg');
  const { FastifyOtelInstrumentation } = require('@fastify/otel') as typeof import('@fastify/otel');
  const enabled = [
    // The gateway's API and the internal HTTP hops (direct queries, direct replies) on both ends.
    new HttpInstrumentation({ ignoreIncomingRequestHook: (request) => UNTRACED_PATH.test(request.url ?? '') }),
    new UndiciInstrumentation(),
    // Statements only inside a traced request or message: the relays' safety-net polls and the
    // simulators' timers would otherwise each start a trace of their own every few hundred ms.
    new PgInstrumentation({ requireParentSpan: true }),
    // Route and handler spans under the HTTP span, with the route's template; not one per hook.
    new FastifyOtelInstrumentation({
      registerOnInitialization: true,
      instrumentHooks: false,
      ignorePaths: ({ url }) => UNTRACED_PATH.test(url),
    }),
    // Kafka: not @opentelemetry/instrumentation-kafkajs. Our transport (@partner/kafka) sends several
    // requests in one producer call and hands each message of a fetched batch to its handler later,
    // where that instrumentation would parent spans on the wrong request or start a new trace. The
    // transport creates the messaging spans itself and carries the W3C context in the headers.
  ];
  instrumentations = enabled;
  // Documents, phones and e-mails masked in every span before it is exported (MaskingSpanProcessor). The
  // SDK builds its exporters from the OTEL_* variables only when given no processors, so they are built
  // here with its own function (not in its index; pinned with the SDK's version in package-lock.json).
  const fromEnv = require('@opentelemetry/sdk-node/build/src/utils') as { getSpanProcessorsFromEnv(this: void): SpanProcessor[] };
  const exporting = spanProcessors ?? fromEnv.getSpanProcessorsFromEnv();
  sdk = new NodeSDK({
    serviceName,
    spanProcessors: exporting.length > 0 ? [new MaskingSpanProcessor(), ...exporting] : [],
    instrumentations: enabled,
  });
  sdk.start();
  return true;
}

/** Exports the spans still buffered and stops the SDK (at shutdown: a batch would otherwise be lost). */
export async function stopTracing(): Promise<void> {
  const running = sdk;
  sdk = undefined;
  await running?.shutdown().catch(() => undefined);
  // Unpatched and unsubscribed too: a Fastify created later in this process (a test file after a
  // traced one, in the same Jest worker) would otherwise meet @fastify/otel's leftover subscriber.
  for (const instrumentation of instrumentations.splice(0)) instrumentation.disable();
}
