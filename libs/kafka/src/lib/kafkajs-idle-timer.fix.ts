/**
 * kafkajs 2.2.4 (its last release) keeps a 1 ms timer running forever on every broker connection once
 * that connection has answered one request: `RequestQueue.scheduleCheckPendingRequests` arms the next
 * check even when no request is pending and nothing is throttled, with a negative delay that Node runs
 * after 1 ms (kafkajs issues #1556 and #1704; the fix of PRs #1667 and #1768 was never released). Every
 * app has several connections (producers, consumers, admin), so each spun a few thousand timers a
 * second while idle: about 2 % of a core per app with no traffic, and the same on top of every request
 * (docs/architecture.md: "Fetching, publishing and connections"; docs/benchmarks/2026-11-22-throughput-and-latency.md).
 *
 * The replacement is upstream's proposed fix: schedule a check only when a request is waiting (in 10 ms,
 * or when the broker's throttling ends) or while throttling lasts. Requests that can go out immediately
 * never waited for this timer, and a request that has to wait still schedules it, so nothing else changes.
 */

/** The fields of kafkajs's RequestQueue the method uses (kafkajs/src/network/requestQueue/index.js). */
interface RequestQueueInternals {
  pending: unknown[];
  throttledUntil: number;
  throttleCheckTimeoutId: NodeJS.Timeout | null;
  checkPendingRequests(): void;
  // A slot on the prototype, which the fix replaces (a property, so reading it unbound is fine).
  scheduleCheckPendingRequests: () => void;
}

/** A queue as its connection uses it besides: answered by responses, destroyed with the connection. */
export interface RequestQueue extends RequestQueueInternals {
  fulfillRequest(response: { correlationId: number; payload: unknown; size: number }): void;
  destroy(): void;
}

/** The class: made per broker connection with its options (clientId, broker, logger, timeouts). */
export interface RequestQueueClass {
  new (options: object): RequestQueue;
  prototype: RequestQueueInternals;
}

/** kafkajs's own interval between checks while requests wait. */
const CHECK_PENDING_REQUESTS_INTERVAL_MS = 10;
const FIXED = Symbol.for('partner.kafkajs-idle-timer-fix');

function scheduleCheckPendingRequests(this: RequestQueueInternals): void {
  if (this.throttleCheckTimeoutId) return;
  let delayMs = this.throttledUntil - Date.now();
  if (this.pending.length > 0) delayMs = delayMs > 0 ? delayMs : CHECK_PENDING_REQUESTS_INTERVAL_MS;
  else if (delayMs <= 0) return; // nothing waits and nothing is throttled: no timer
  this.throttleCheckTimeoutId = setTimeout(() => {
    this.throttleCheckTimeoutId = null;
    this.checkPendingRequests();
  }, delayMs);
}

/** kafkajs's RequestQueue class (not part of its public API, hence the deep path). */
export function kafkajsRequestQueue(): RequestQueueClass {
  return require('kafkajs/src/network/requestQueue') as RequestQueueClass;
}

/**
 * Replaces the method once per process. Only on the kafkajs line it was written against (2.2.x): a
 * later kafkajs may have fixed it or changed the class, and is then left as it is.
 */
export function fixKafkajsIdleTimer(queue: RequestQueueClass = kafkajsRequestQueue()): boolean {
  const proto = queue.prototype as RequestQueueInternals & { [FIXED]?: true };
  if (proto[FIXED]) return true;
  const { version } = require('kafkajs/package.json') as { version: string };
  if (!version.startsWith('2.2.') || typeof proto.scheduleCheckPendingRequests !== 'function') return false;
  proto.scheduleCheckPendingRequests = scheduleCheckPendingRequests;
  proto[FIXED] = true;
  return true;
}
