import { WithdrawalAudit } from './withdrawal-audit';
import { RetryOutcome, WithdrawalLoad } from './withdrawal-load';

const counts = (m: Map<number | string, number>, name: (k: number | string) => string = String) =>
  [...m]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([k, n]) => `${name(k)}: ${n}`)
    .join(', ');

/** Every broken invariant of a fault-injection run; empty when nothing was lost, duplicated or left open. */
export function chaosFailures(load: WithdrawalLoad, retry: RetryOutcome, audit: WithdrawalAudit): string[] {
  // A fault is ours, never the caller's: it must be answered 503 (retry), not 500 (a bug of ours).
  const internal = load.statuses.get(500) ?? 0;
  return [
    ...audit.failures,
    ...load.unexpected,
    ...retry.unresolved.map((key) => `retry of key ${key} never got a final answer`),
    ...(internal > 0 ? [`${internal} request(s) answered 500 during a fault (a dependency failure must be a 503)`] : []),
  ];
}

/** The counts of a fault-injection run, as `npm run chaos` and the short chaos suite print them. */
export function chaosReport(faults: string[], load: WithdrawalLoad, retry: RetryOutcome, audit: WithdrawalAudit): string {
  const failures = chaosFailures(load, retry, audit);
  return [
    'chaos counts',
    `  faults injected:        ${faults.length} (${faults.join('; ')})`,
    `  requests:               ${load.requests} (${counts(load.statuses, (s) => (s === 0 ? 'no answer' : String(s)))})`,
    `  without a final answer: ${retry.pending} (5xx or none); retried with the same key: ${retry.calls} calls, answered ${counts(retry.answers)}; ${retry.resolvedToWithdrawal} resolved to a withdrawal`,
    `  accepted withdrawals:   ${audit.accepted} (database: ${audit.database.total}, open: ${audit.database.open}, unknown to clients: ${audit.database.unknownToClients})`,
    `  feed events per state:  ${counts(audit.eventsPerState)}`,
    `  duplicates:             ${audit.duplicates}`,
    `  missing:                ${audit.missing}`,
    `  invariants:             ${failures.length === 0 ? 'all hold' : `${failures.length} FAILED`}`,
    ...failures.slice(0, 50).map((f) => `    - ${f}`),
  ].join('\n');
}
