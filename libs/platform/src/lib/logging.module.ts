import { DynamicModule } from '@nestjs/common';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { LoggerModule, PinoLogger } from 'nestjs-pino';

/** Probes and scrapes: answered many times a minute, never logged. */
const QUIET_URLS = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * Structured JSON logs (pino). Secrets never reach the log: request headers are not logged at all (so
 * no API or admin key), and the key headers stay redacted as a second guard should that ever change.
 * Set LOG_PRETTY=true for human-readable lines in development.
 *
 * nestjs-pino's per-request middleware is not mounted (`forRoutes: []`): it built two child loggers per
 * request and ran every request inside an AsyncLocalStorage, which on Node 20 puts a hook on every
 * promise; together about a tenth of the gateway's CPU per request (profiled). Requests are logged by
 * logRequests instead, one line from a Fastify hook.
 */
export function loggingModule(service: string, level: string): DynamicModule {
  return LoggerModule.forRoot({
    forRoutes: [],
    pinoHttp: {
      level,
      name: service,
      redact: { paths: ['req.headers["x-api-key"]', 'req.headers["x-admin-key"]', 'req.headers.authorization'], censor: '[redacted]' },
      transport: process.env.LOG_PRETTY === 'true' ? { target: 'pino-pretty', options: { singleLine: true } } : undefined,
    },
  });
}

/**
 * One line per answered request with what an operator searches by (request id, method, URL, status,
 * time), never a header. Call once the app is created (it needs loggingModule's logger).
 */
export function logRequests(app: NestFastifyApplication): void {
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('onResponse', (request, reply, done) => {
      if (!QUIET_URLS.has(request.url)) {
        // Read here, not above: nestjs-pino creates its root logger when the app initialises.
        const log = PinoLogger.root;
        const fields = { reqId: request.id, method: request.method, url: request.url, statusCode: reply.statusCode, responseTime: Math.round(reply.elapsedTime * 10) / 10 };
        if (reply.statusCode >= 500) log.error(fields, 'request errored');
        else log.info(fields, 'request completed');
      }
      done();
    });
}
