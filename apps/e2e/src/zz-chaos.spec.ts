import { GATEWAY, SERVICE_NAMES } from '@partner/contracts';
import { auditWithdrawals, chaosFailures, chaosPartners, chaosReport, databaseOutage, pollUntil, requireEnv, WithdrawalLoad } from '@partner/testing';
import { gatewayAdminUrl, gatewayUrl } from './support/sandbox';

/**
 * The short version of `npm run chaos` (issue #4), against the stack `npm test` runs: while withdrawals
 * are being requested, every app is killed with -9 and restarted, the broker is killed with -9 and
 * restarted, and every database connection is terminated for 3 s (a PostgreSQL restart as the services
 * see it; the server itself is shared with other work on this machine). Afterwards every request without
 * a final answer is retried with its own idempotency key, and the audit checks that every accepted
 * withdrawal is final and that each partner's feed, read page by page from its cursor, holds exactly
 * one created, one sent and one final event per withdrawal, numbered 1..n without a gap.
 *
 * Named zz- so that the sequencer (apps/e2e/sequencer.js) runs it after every other suite: the faults
 * would otherwise break their requests.
 */
const APPS = [GATEWAY.name, ...SERVICE_NAMES];

async function control(action: 'kill' | 'restart', target: string): Promise<void> {
  const res = await fetch(`${requireEnv('STACK_CONTROL_URL')}/${action}/${target}`, { method: 'POST', signal: AbortSignal.timeout(120_000) });
  if (res.status !== 204) throw new Error(`${action} ${target}: ${res.status} ${await res.text()}`);
}

describe('short chaos: kill -9 of every app and of the broker, and a database outage, during a load of withdrawals', () => {
  it('loses nothing and duplicates nothing: every accepted withdrawal is final with one event per state change', async () => {
    const gateway = gatewayUrl();
    const databaseUrl = requireEnv('DATABASE_URL');
    const partners = await chaosPartners(gateway, requireEnv('ADMIN_API_KEY'), 4);
    // ~6 requests/s; the cap bounds the run should restarts be slow, and it is far above what the faults take.
    const load = new WithdrawalLoad(gateway, partners, { workers: 3, paceMs: 400, maxRequests: 1_500 });
    const faults: string[] = [];
    load.start();
    try {
      await load.progress(10);
      for (const target of [...APPS, 'kafka']) {
        await control('kill', target);
        await control('restart', target);
        faults.push(`kill -9 ${target}, restart`);
        await load.progress(10); // the load goes on against the recovered stack before the next fault
      }
      await databaseOutage(databaseUrl, 3_000);
      await pollUntil('the stack ready after the database outage', () => fetch(`${gatewayAdminUrl()}/readyz`).then((r) => r.status), (s) => s === 200, { timeoutMs: 60_000, intervalMs: 250 });
      faults.push('database outage (every connection terminated for 3 s)');
      await load.progress(10);
    } finally {
      await load.stop();
    }

    const retry = await load.retryUnanswered(120_000);
    const audit = await auditWithdrawals({ gatewayUrl: gateway, databaseUrl, partners, accepted: load.accepted.values(), settleTimeoutMs: 120_000 });
    console.log(chaosReport(faults, load, retry, audit));

    expect(chaosFailures(load, retry, audit)).toEqual([]);
    expect(faults).toHaveLength(APPS.length + 2);
    // Every request ended as exactly one withdrawal (all are valid and funded), however the faults answered it.
    expect(audit.accepted).toBe(load.requests);
    expect(audit.database).toEqual({ total: load.requests, open: 0, unknownToClients: 0 });
    const finals = (audit.eventsPerState.get('settled') ?? 0) + (audit.eventsPerState.get('failed') ?? 0);
    expect({ created: audit.eventsPerState.get('created'), sent: audit.eventsPerState.get('sent'), final: finals }).toEqual({
      created: load.requests,
      sent: load.requests,
      final: load.requests,
    });
    expect({ duplicates: audit.duplicates, missing: audit.missing }).toEqual({ duplicates: 0, missing: 0 });
  }, 900_000);
});
