import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { Server as NetServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Closes a listener for a rolling restart (docs/operations.md, "Graceful shutdown"): no new connection
 * from now on (a balancer's next attempt is refused and goes to another instance), and every request on an
 * open connection answered with `Connection: close` (the client closes it then) for at
 * most `maxMs`; whatever is left then is cut, so a stuck client cannot hold the process. Idle keep-alive
 * connections are not closed first: a request the client sent as the server closed one would be reset
 * (HTTP/1.1's race), where answering it costs nothing. Resolves once no connection remains.
 */
export async function drain(server: Server, maxMs: number): Promise<void> {
  if (!server.listening) return;
  const ended = new Promise<void>((resolve) => server.once('close', () => resolve()));
  // net.Server's close, not http.Server's (which closes idle connections): stops accepting, and resolves
  // `ended` once the last connection is gone.
  NetServer.prototype.close.call(server);
  // First of the request listeners: every answer from now on closes its connection after it.
  server.prependListener('request', (_request: IncomingMessage, response: ServerResponse) => response.setHeader('connection', 'close'));
  const cutOff = sleep(maxMs, undefined, { ref: false }).then(() => server.closeAllConnections());
  await Promise.race([ended, cutOff]);
}
