import { BrlAudit } from './brl-audit';
import { ChainAudit, chainAuditLine, chainAuditReport } from './chain-audit';
import { FeedAudit } from './feed-audit';
import { MoneyAudit } from './money-audit';
import { LoadWindow, PartnerLoad, RetryOutcome } from './partner-load';

const counts = <K extends number | string>(m: Map<K, number>, name: (k: K) => string = String) =>
  [...m]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([k, n]) => `${name(k)}: ${n}`)
    .join(', ');

/** A fault and how long the stack took to serve again, against the bound it must meet. */
export interface FaultRecovery {
  label: string;
  recoveryMs: number;
  limitMs: number;
}

export interface ChaosOutcome {
  faults: FaultRecovery[];
  load: PartnerLoad;
  retry: RetryOutcome;
  money: MoneyAudit;
  /** The BRL balances, the refunds and the provider's devoluções (brl-audit.ts), when the run audited them. */
  brl?: BrlAudit;
  feeds: FeedAudit;
  /** The rolling restart's window of the load, when the run had one. */
  rolling?: LoadWindow;
  /** The on-chain audit (chain-audit.ts), when the run paid on chains. */
  chain?: ChainAudit;
}

/** Every broken invariant of a fault-injection run; empty when nothing was lost, duplicated, overdrawn or slow to recover. */
export function chaosFailures({ faults, load, retry, money, brl, feeds, rolling, chain }: ChaosOutcome): string[] {
  const slow = faults
    .filter((f) => f.recoveryMs > f.limitMs)
    .map((f) => `${f.label}: recovered in ${(f.recoveryMs / 1000).toFixed(1)} s, more than ${f.limitMs / 1000} s`);
  // The load must have contended: some withdrawals accepted, some refused because the balance ran out.
  const contention =
    money.acceptedWithdrawals === 0 || money.insufficient === 0
      ? [`no contention: ${money.acceptedWithdrawals} withdrawals accepted, ${money.insufficient} refused for insufficient funds`]
      : [];
  const rollingFailures = rolling
    ? rolling.failed.slice(0, 20).map((f) => `rolling restart: ${f} (only a 503 with Retry-After may fail)`)
    : [];
  if (rolling && rolling.failed.length > 20) rollingFailures.push(`rolling restart: ${rolling.failed.length - 20} more`);
  // Any count but the paid ones fails the run, named even when the audit gave no line for it.
  const chainFailures = chain ? [...chain.failures] : [];
  if (chain && chain.paidTwice + chain.missing + chain.drift > 0 && chain.failures.length === 0) chainFailures.push(chainAuditLine(chain));
  if (chain && chain.paid === 0) chainFailures.push('chain audit: no withdrawal of the load was paid');
  return [
    ...slow,
    ...contention,
    ...money.failures,
    ...(brl?.failures ?? []),
    ...feeds.failures,
    ...chainFailures,
    ...rollingFailures,
    ...load.unexpected.slice(0, 50),
    ...retry.unresolved.map((r) => `retry never got a final answer: ${r}`),
  ];
}

/** The counts of a fault-injection run, as `npm run chaos` and the short chaos suite print them. */
export function chaosReport(outcome: ChaosOutcome): string {
  const { faults, load, retry, money, brl, feeds, rolling, chain } = outcome;
  const failures = chaosFailures(outcome);
  const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  return [
    'chaos counts',
    `  faults injected:        ${faults.length}`,
    ...faults.map(
      (f) => `    ${f.recoveryMs <= f.limitMs ? 'ok  ' : 'SLOW'} ${f.label}: recovered in ${secs(f.recoveryMs)} (limit ${secs(f.limitMs)})`,
    ),
    `  requests:               ${load.requests} at ${load.achievedRate.toFixed(1)}/s (${counts(load.byOperation)}); late: ${load.late}`,
    `  answers:                ${counts(load.statuses, (s) => (s === 0 ? 'no answer' : String(s)))}`,
    `  without a final answer: ${[...retry.pending.values()].reduce((a, b) => a + b, 0)} (${counts(retry.pending)}); retried with the same key: ${retry.calls} calls, answered ${counts(retry.answers)}; ${retry.resolvedToAccepted} turned out accepted`,
    ...(rolling
      ? [
          `  rolling restart:        ${counts(rolling.statuses, (s) => (s === 0 ? 'no answer' : String(s)))}; failed other than 503 + Retry-After: ${rolling.failed.length}`,
        ]
      : []),
    `  money audit: ${money.users} users, ${money.overdraft} overdraft, ${money.drift} drift (credited ${money.credited} µUSDT, settled ${money.spent}; withdrawals accepted ${money.acceptedWithdrawals}, refused for insufficient funds ${money.insufficient})`,
    ...(brl
      ? [
          `  BRL audit: ${brl.users} users; refunds ${brl.refunds.success} returned, ${brl.refunds.failed} failed (credited back), ${brl.refunds.open} not final; refused ${counts(load.ledger.refundsRefused)}; ${brl.devolucoes === undefined ? "the provider's record not read" : `${brl.devolucoes} devoluções made by the provider`}`,
        ]
      : []),
    ...feeds.paths.map(
      (p) =>
        `  feed ${p.path.padEnd(12)} API accepted ${p.accepted}${p.unknown ? ` (+${p.unknown} unknown)` : ''}, database ${p.database}, feed ${p.feedResources} resources (${counts(p.eventsPerState)}), duplicates ${p.duplicates}, missing ${p.missing}`,
    ),
    `  feed events:            ${feeds.events} in all, ${feeds.acknowledged} acknowledged (all read back delivered unless listed below)`,
    ...(chain ? chainAuditReport(chain) : []),
    `  invariants:             ${failures.length === 0 ? 'all hold' : `${failures.length} FAILED`}`,
    ...failures.slice(0, 60).map((f) => `    - ${f}`),
  ].join('\n');
}
