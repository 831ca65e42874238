import { createServer } from 'node:http';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';

/** What an operator probes and scrapes, never partners: with an admin port, only it answers these. */
export const ADMIN_PATHS = new Set(['/readyz', '/metrics']);

const pathOf = (url: string): string => url.split('?')[0];

/**
 * The gateway's internal admin port (ADMIN_PORT): /readyz and /metrics answer there and nowhere else, so
 * the API port a load balancer exposes shows neither the dependencies' state (readiness errors name
 * them) nor the metrics. It is a second listener routed through the same Fastify instance (same
 * handlers, hooks and request logs); a request's local port tells which listener it came in on. Each
 * port answers the other's paths as an unknown route (404 in the API's error shape); /healthz answers on
 * both (a load balancer probes the API port). Listens when the app is ready, closes with it.
 */
export function installAdminPort(app: NestFastifyApplication, port: number, host: string): void {
  const fastify = app.getHttpAdapter().getInstance();
  const server = createServer((req, res) => fastify.routing(req, res));
  fastify.addHook('onRequest', (request, reply, done) => {
    const path = pathOf(request.url);
    const onAdminPort = request.raw.socket.localPort === port;
    const allowed = path === '/healthz' || onAdminPort === ADMIN_PATHS.has(path);
    if (allowed) done();
    else reply.callNotFound();
  });
  fastify.addHook('onReady', (done) => {
    server.once('error', done);
    server.listen(port, host, () => {
      server.off('error', done);
      done();
    });
  });
  fastify.addHook('onClose', (_instance, done) => {
    if (!server.listening) return done();
    server.close(() => done());
    server.closeAllConnections();
  });
}
