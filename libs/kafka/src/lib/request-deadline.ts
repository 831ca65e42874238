/**
 * A request's deadline (docs/adr/0016-what-503-means.md): the caller stops waiting for the reply at this
 * instant (epoch milliseconds, as a string header), after which it has already answered 503. A service
 * drops a request that reaches a handler after it: nobody waits for the outcome, and a backlog left by an
 * outage is not worked off for callers who have gone. A request whose handler started before the
 * deadline runs to the end (its transaction is not interrupted): that is why 503 means "outcome unknown".
 * Clocks are compared across hosts: they must be synchronised (NTP) far better than the timeout.
 */
export const DEADLINE_HEADER = 'deadline';

/** The header's value for a request sent now that its caller waits `timeoutMs` for. */
export const deadlineAfter = (timeoutMs: number, now = Date.now()): string => String(now + timeoutMs);

/** Whether a request carrying this deadline header has expired; one without the header (or unreadable) never does. */
export function deadlinePassed(header: string | undefined, now = Date.now()): boolean {
  if (header === undefined) return false;
  const deadline = Number(header);
  return Number.isFinite(deadline) && now > deadline;
}
