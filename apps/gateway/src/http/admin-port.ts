import { createServer } from 'node:http';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { drain } from './drain';
import { clientErrorHandler } from './framework-errors';

const pathOf = (url: string): string => url.split('?')[0];

const under = (path: string, prefix: string): boolean => path === prefix || path.startsWith(`${prefix}/`);

/**
 * What the public port (PORT, behind the load balancer) answers: the partner API, the sandbox helpers of a
 * sandbox gateway, the Pix provider's notifications (/provider, HMAC-signed), the API reference and liveness. Anything else (every route added later included) is
 * not public until it is listed here.
 */
export const isPublicPath = (path: string): boolean =>
  path === '/healthz' || under(path, '/partner') || under(path, '/provider') || under(path, '/sandbox') || under(path, '/docs');

/** What the operator port (ADMIN_PORT) answers: the operator API, readiness (it names the dependencies), the metrics, liveness. */
export const isOperatorPath = (path: string): boolean =>
  path === '/healthz' || path === '/readyz' || path === '/metrics' || under(path, '/admin');

/**
 * The gateway's internal operator port (ADMIN_PORT, docs/adr/0019-production-safe-by-default.md): the
 * operator API (/admin/v1), /readyz and /metrics answer there and nowhere else, so the public port a load
 * balancer exposes shows neither the operator API (not even to a caller holding an operator key) nor the
 * dependencies' state nor the metrics; the partner API answers on the public port only. It is a second
 * listener routed through the same Fastify instance (same handlers, hooks, audit and request logs); a
 * request's local port tells which listener it came in on. Each port answers what is not its own as an
 * unknown route (404 in the API's error shape, before any guard runs); /healthz answers on both. Listens
 * when the app is ready, closes with it.
 */
export function installAdminPort(app: NestFastifyApplication, port: number, host: string, drainMs: number): void {
  const fastify = app.getHttpAdapter().getInstance();
  const server = createServer({ connectionsCheckingInterval: 1_000 }, (req, res) => fastify.routing(req, res));
  // The public port's timeouts (gateway-app.ts, httpTimeouts): idle connections kept as long as there (72 s
  // by default), not Node's own 5 s, which a client reusing a connection just as it closed met as "other
  // side closed"; headers and the whole request received within the same bounds.
  const publicServer = fastify.server;
  server.keepAliveTimeout = publicServer.keepAliveTimeout;
  server.headersTimeout = publicServer.headersTimeout;
  server.requestTimeout = publicServer.requestTimeout;
  // What the HTTP parser refuses never reaches Fastify: answered here as on the public port.
  server.on('clientError', clientErrorHandler);
  fastify.addHook('onRequest', (request, reply, done) => {
    const path = pathOf(request.url);
    const onAdminPort = request.raw.socket.localPort === port;
    // A path no route matches is already on its way to the not-found handler (the API's 404): calling it
    // again from there would make Fastify answer its bare text 404 instead.
    if (request.is404 || (onAdminPort ? isOperatorPath(path) : isPublicPath(path))) done();
    else reply.callNotFound();
  });
  fastify.addHook('onReady', (done) => {
    server.once('error', done);
    server.listen(port, host, () => {
      server.off('error', done);
      done();
    });
  });
  // Drained like the public port (drain): an operator's credit under way is answered, not cut off.
  fastify.addHook('preClose', async () => drain(server, drainMs));
}
