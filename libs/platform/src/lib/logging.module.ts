import { DynamicModule, Module, OnApplicationShutdown } from '@nestjs/common';
import { trace } from '@opentelemetry/api';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { LoggerModule, PinoLogger } from 'nestjs-pino';
import type { LoggerOptions } from 'pino';
import { RequestContext, RequestContexts } from '@partner/runtime';
import { maskLogArguments, maskUrl, stopTracing } from '@partner/tracing';

declare module 'fastify' {
  interface FastifyRequest {
    /** The request's context once openRequestContexts opened it (null before, e.g. a body refused while parsed). */
    requestContext: RequestContext | null;
  }
}

/** Probes and scrapes: answered many times a minute, never logged. */
const QUIET_URLS = new Set(['/healthz', '/readyz', '/metrics']);
/** A logged URL is cut here (masked first): hostile paths run to thousands of characters. */
const MAX_LOGGED_URL = 512;

/**
 * Every line written inside a request context (docs/architecture.md: "Request context") gets its `request_id` and
 * `partner_id` (null while the partner is unknown), and inside a recorded trace its `trace_id` (docs/operations/observability.md:
 * "Tracing"), so a log line leads to its trace. A fresh object each time: pino merges the line's own
 * fields into it.
 */
function requestFields(): Record<string, unknown> {
  const context = RequestContexts.current();
  const fields: Record<string, unknown> = context ? { request_id: context.requestId, partner_id: context.partnerId ?? null } : {};
  const span = trace.getActiveSpan();
  if (span?.isRecording()) fields['trace_id'] = span.spanContext().traceId;
  return fields;
}

/**
 * Structured JSON logs (pino). Secrets never reach the log: request headers are not logged at all (so
 * no API or admin key), and the key headers stay redacted as a second guard should that ever change.
 * CPFs, CNPJs (also Pix keys), phones and e-mails are masked in every line's message, string fields and error, whoever
 * wrote it (maskIdentifiers). Set LOG_PRETTY=true for human-readable lines in development.
 *
 * nestjs-pino's per-request middleware is not mounted (`forRoutes: []`): it built two child loggers per
 * request and ran every request inside an AsyncLocalStorage of its own; together about a tenth of the
 * gateway's CPU per request (profiled). Requests are logged by logRequests instead, one line from a
 * Fastify hook, and the request id reaches every other line through the `mixin` below, which reads the
 * one request context (RequestContexts) the gateway and the Kafka transport open per request.
 */
export function loggingModule(service: string, level: string): DynamicModule {
  return { module: TelemetryModule, imports: [LoggerModule.forRoot({ forRoutes: [], pinoHttp: logOptions(service, level) })] };
}

/** Logs and traces: at shutdown, the spans still buffered are exported before the process exits. */
@Module({})
class TelemetryModule implements OnApplicationShutdown {
  onApplicationShutdown(): Promise<void> {
    return stopTracing();
  }
}

/** The pino options of every app (loggingModule), apart for tests. */
export function logOptions(service: string, level: string): LoggerOptions {
  return {
    level,
    name: service,
    mixin: requestFields,
    hooks: {
      logMethod(args, method) {
        return method.apply(this, maskLogArguments(args) as Parameters<typeof method>);
      },
    },
    redact: { paths: ['req.headers["x-api-key"]', 'req.headers["x-admin-key"]', 'req.headers.authorization'], censor: '[redacted]' },
    transport: process.env.LOG_PRETTY === 'true' ? { target: 'pino-pretty', options: { singleLine: true } } : undefined,
  };
}

/**
 * Runs each HTTP request of `app` inside a request context of its own, `{requestId: request.id}`
 * (Fastify's request id: see the app's genReqId), kept on `request.requestContext` too so that code
 * running outside it (the response hooks) still finds it. Opened in preValidation, once the body is
 * parsed: Fastify parses bodies on the socket's stream events, where a context opened earlier is lost;
 * guards, pipes, handlers and error filters all run after it.
 */
export function openRequestContexts(app: NestFastifyApplication): void {
  const fastify = app.getHttpAdapter().getInstance();
  fastify.decorateRequest('requestContext', null);
  fastify.addHook('preValidation', (request, _reply, done) => {
    const context: RequestContext = { requestId: request.id };
    request.requestContext = context;
    RequestContexts.run(context, done);
  });
}

/**
 * One line per answered request with what an operator searches by (request id, partner, method, route,
 * status, time), never a header. The URL is logged as its route pattern (`route`) and as a masked path
 * (`url`): a path or query may hold a CPF. Call once the app is created (it needs loggingModule's logger).
 */
export function logRequests(app: NestFastifyApplication): void {
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('onResponse', (request, reply, done) => {
      // Read here, not above: nestjs-pino creates its root logger when the app initialises.
      const log = PinoLogger.root;
      // Nothing is built (no URL masking) for a line the level would drop: LOG_LEVEL=warn in production-like runs.
      const errored = reply.statusCode >= 500;
      if (!QUIET_URLS.has(request.url) && log.isLevelEnabled(errored ? 'error' : 'info')) {
        const fields = {
          request_id: request.id,
          partner_id: request.requestContext?.partnerId ?? null,
          method: request.method,
          route: request.routeOptions.url ?? 'unmatched',
          url: maskUrl(request.url).slice(0, MAX_LOGGED_URL),
          statusCode: reply.statusCode,
          responseTime: Math.round(reply.elapsedTime * 10) / 10,
        };
        if (errored) log.error(fields, 'request errored');
        else log.info(fields, 'request completed');
      }
      done();
    });
}
