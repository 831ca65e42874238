import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { METRICS_REGISTRY } from '@partner/platform';
import { Histogram, Registry } from 'prom-client';

/**
 * Every answered request into `http_request_duration_seconds{method,route,status}` (its `_count` is the
 * request count). `route` is the route's pattern (`/partner/v1/pix-key/:document`), never the raw URL,
 * so a partner's documents or ids never become label values; unknown paths count as `unmatched`.
 */
export function recordHttpMetrics(app: NestFastifyApplication): void {
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from request to response, by method, route pattern and status',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [app.get<Registry>(METRICS_REGISTRY)],
  });
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('onResponse', async (request, reply) => {
      duration.observe(
        { method: request.method, route: request.routeOptions.url ?? 'unmatched', status: String(reply.statusCode) },
        reply.elapsedTime / 1000,
      );
    });
}
