import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { Logger } from 'nestjs-pino';
import { kafkaConnection, prepareTopics } from '@partner/kafka';
import { logRequests } from '@partner/platform';
import { AppModule, GatewayBus } from './app.module';
import { OperatorCallAudit } from './audit/audit-hook';
import { GatewayConfig } from './config/gateway.config';
import { clientErrorHandler, frameworkErrorHandler, MAX_PATH_PARAMETER_LENGTH } from './http/framework-errors';
import { HttpErrorFilter } from './http/http-error.filter';
import { installAdminPort } from './http/admin-port';
import { drain } from './http/drain';
import { installJsonBodyParser } from './http/json-body-parser';
import { recordHttpMetrics } from './http/http-metrics';
import { genReqId, trackRequestIds } from './http/request-id';
import { refuseMalformedText } from './http/well-formed-text';
import { setupOpenApi } from './http/openapi';

export interface GatewayAppOptions {
  /** Off in tests that assert on output. */
  logs?: boolean;
  /**
   * Replaces the Kafka MessageBus; the gateway then neither creates topics nor joins the `gateway`
   * reply consumer group, nor hears other instances' key revocations (its own outbox stays unpublished).
   * The bench's in-process baseline (tools/bench-baseline) and the gateway's specs use it.
   */
  overrideBus?: GatewayBus;
}

/**
 * Builds the gateway exactly as it runs (main.ts, the integration test and the bench baseline share
 * this). Bodies are JSON only: Nest's urlencoded parser is not installed and Fastify's text/plain parser
 * is removed, so any other content type is refused with 415 before validation. An empty JSON body counts
 * as no body (installJsonBodyParser).
 */
export async function createGatewayApp(
  config: GatewayConfig,
  { logs = true, overrideBus }: GatewayAppOptions = {},
): Promise<NestFastifyApplication> {
  if (!overrideBus) await prepareTopics(kafkaConnection(config, `gateway-admin-${process.pid}`), config);
  const audit = new OperatorCallAudit();
  // Request ids: the caller's sane X-Request-Id or a UUID (docs/api.md: "Request ids"); never the raw header.
  const adapter = new FastifyAdapter({
    bodyLimit: config.BODY_LIMIT_BYTES,
    // The client address (request.ip) is X-Forwarded-For's entry that many hops in, or the peer: never what a client wrote.
    trustProxy: config.TRUST_PROXY_HOPS === 0 ? false : config.TRUST_PROXY_HOPS,
    // Fastify's own 503 while closing has neither Retry-After nor the family's body: a request that
    // arrives during the drain is served instead (with Connection: close), and the bus is still up then.
    return503OnClosing: false,
    ...httpTimeouts(config),
    frameworkErrors: (error: FastifyError, request: FastifyRequest, reply: FastifyReply) =>
      frameworkErrorHandler(error, request, reply, audit.beforeFrameworkError),
    clientErrorHandler,
    routerOptions: { maxParamLength: MAX_PATH_PARAMETER_LENGTH },
    genReqId,
    requestIdHeader: false,
  });
  adapter.getInstance().removeContentTypeParser('text/plain');
  installJsonBodyParser(adapter.getInstance());
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.register(config, { overrideBus }), adapter, {
    bufferLogs: true,
    bodyParser: false,
  });
  trackRequestIds(app);
  refuseMalformedText(adapter.getInstance());
  audit.install(app);
  if (logs) {
    app.useLogger(app.get(Logger));
    logRequests(app);
  }
  app.useGlobalFilters(new HttpErrorFilter());
  recordHttpMetrics(app);
  // A request under way when the gateway is told to stop waits at most REQUEST_TIMEOUT_MS for its service.
  const drainMs = config.REQUEST_TIMEOUT_MS + 1_000;
  adapter.getInstance().addHook('preClose', async () => drain(adapter.getInstance().server, drainMs));
  if (config.ADMIN_PORT > 0) installAdminPort(app, config.ADMIN_PORT, config.HOST, drainMs);
  setupOpenApi(app);
  app.enableShutdownHooks();
  return app;
}

/**
 * The public port's timeouts (the operator port copies them, admin-port.ts): a client must send its headers
 * within HTTP_HEADERS_TIMEOUT_MS and its whole request within HTTP_RECEIVE_TIMEOUT_MS, else 408 and the
 * connection closed (clientErrorHandler); an idle connection is closed after HTTP_KEEP_ALIVE_TIMEOUT_MS.
 * Node looks at the first two once per connectionsCheckingInterval (30 s by default): once a second here.
 */
export function httpTimeouts(config: GatewayConfig) {
  const receive = config.HTTP_RECEIVE_TIMEOUT_MS;
  return {
    requestTimeout: receive,
    keepAliveTimeout: config.HTTP_KEEP_ALIVE_TIMEOUT_MS,
    http: { headersTimeout: Math.min(config.HTTP_HEADERS_TIMEOUT_MS, receive), connectionsCheckingInterval: 1_000 },
  };
}
