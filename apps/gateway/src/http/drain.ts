import type { Server } from 'node:http';
import { Server as NetServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Closes a listener for a rolling restart (docs/operations.md, "Graceful shutdown"): no new connection
 * from now on (a balancer's next attempt is refused and goes to another instance), idle keep-alive
 * connections closed, and every request under way answered (Fastify adds `Connection: close` while
 * closing) for at most `maxMs`; whatever is left then is cut, so a stuck client cannot hold the process.
 * Resolves once no connection remains.
 */
export async function drain(server: Server, maxMs: number): Promise<void> {
  if (!server.listening) return;
  const ended = new Promise<void>((resolve) => server.once('close', () => resolve()));
  // net.Server's close: stops accepting and resolves `ended` once the last connection is gone.
  NetServer.prototype.close.call(server);
  // A keep-alive connection turns idle when its answer has gone: closed then, at the next sweep.
  server.closeIdleConnections();
  const sweep = setInterval(() => server.closeIdleConnections(), 100).unref();
  const cutOff = sleep(maxMs, undefined, { ref: false }).then(() => server.closeAllConnections());
  await Promise.race([ended, cutOff]).finally(() => clearInterval(sweep));
}
