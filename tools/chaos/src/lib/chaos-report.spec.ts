import { ChainAudit } from './chain-audit';
import { chaosFailures, chaosReport, ChaosOutcome } from './chaos-report';
import { FeedAudit } from './feed-audit';
import { MoneyAudit } from './money-audit';
import { PartnerLoad, RetryOutcome } from './partner-load';

const money = (overrides: Partial<MoneyAudit> = {}): MoneyAudit => ({
  users: 12,
  overdraft: 0,
  drift: 0,
  credited: 500_000_000,
  spent: 300_000_000,
  acceptedWithdrawals: 90,
  insufficient: 40,
  failures: [],
  ...overrides,
});
const feeds: FeedAudit = { paths: [], events: 0, acknowledged: 0, failures: [] };
const retry: RetryOutcome = { pending: new Map(), calls: 0, answers: new Map(), resolvedToAccepted: 0, unresolved: [] };
const outcome = (overrides: Partial<ChaosOutcome> = {}): ChaosOutcome => ({
  faults: [{ label: 'kill -9 events, restart', recoveryMs: 4_000, limitMs: 10_000 }],
  load: new PartnerLoad('http://127.0.0.1:1', [], 'admin', { rate: 1 }),
  retry,
  money: money(),
  feeds,
  ...overrides,
});

describe('chaosFailures (what makes `npm run chaos` exit 1)', () => {
  it('holds when every audit is clean and every recovery within its bound', () => {
    expect(chaosFailures(outcome())).toEqual([]);
    expect(chaosReport(outcome())).toContain('money audit: 12 users, 0 overdraft, 0 drift');
  });

  it('fails a recovery slower than its bound', () => {
    const slow = outcome({ faults: [{ label: 'kill -9 of the broker 1, start', recoveryMs: 24_500, limitMs: 20_000 }] });

    expect(chaosFailures(slow)).toEqual(['kill -9 of the broker 1, start: recovered in 24.5 s, more than 20 s']);
  });

  it('fails a run without contention: no withdrawal refused for insufficient funds, or none accepted', () => {
    expect(chaosFailures(outcome({ money: money({ insufficient: 0 }) }))).toEqual([
      'no contention: 90 withdrawals accepted, 0 refused for insufficient funds',
    ]);
    expect(chaosFailures(outcome({ money: money({ acceptedWithdrawals: 0 }) }))).toHaveLength(1);
  });

  it('fails a rolling restart that answered anything but a 503 with Retry-After', () => {
    const rolling = { label: 'rolling restart', statuses: new Map([[503, 3]]), failed: ['withdrawal: 503 without Retry-After'] };

    expect(chaosFailures(outcome({ rolling }))).toEqual([
      'rolling restart: withdrawal: 503 without Retry-After (only a 503 with Retry-After may fail)',
    ]);
  });

  it('carries the audits’ failures and the unresolved retries', () => {
    const failing = outcome({
      money: money({ failures: ['user p d: below zero'] }),
      feeds: { ...feeds, failures: ['pix keys: k has events [pending], expected [pending, registered]'] },
      retry: { ...retry, unresolved: ['withdrawal POST /partner/v1/withdrawals/usdt {}'] },
    });

    expect(chaosFailures(failing)).toEqual([
      'user p d: below zero',
      'pix keys: k has events [pending], expected [pending, registered]',
      'retry never got a final answer: withdrawal POST /partner/v1/withdrawals/usdt {}',
    ]);
  });

  it('fails on any count of the chain audit but the paid ones, and prints its one line', () => {
    const chain = (overrides: Partial<ChainAudit> = {}): ChainAudit => ({
      paid: 40,
      failedUnpaid: 2,
      othersPaid: 0,
      paidTwice: 0,
      missing: 0,
      drift: 0,
      outsideTransfers: 1,
      outsideReported: 1,
      networks: [],
      failures: [],
      ...overrides,
    });

    expect(chaosFailures(outcome({ chain: chain() }))).toEqual([]);
    expect(chaosReport(outcome({ chain: chain() }))).toContain('chain audit: 40 paid, 0 paid twice, 0 missing, 0 drift');
    expect(chaosReport(outcome({ chain: chain() }))).toContain('1 outside transfers reported (of 1 the faults made from the hot wallets)');
    expect(chaosFailures(outcome({ chain: chain({ paidTwice: 1 }) }))).toEqual(['chain audit: 40 paid, 1 paid twice, 0 missing, 0 drift']);
    expect(chaosFailures(outcome({ chain: chain({ drift: 1, failures: ['MATIC: outflow 2, settled 1'] }) }))).toEqual([
      'MATIC: outflow 2, settled 1',
    ]);
    expect(chaosFailures(outcome({ chain: chain({ paid: 0 }) }))).toEqual(['chain audit: no withdrawal of the load was paid']);
  });
});
