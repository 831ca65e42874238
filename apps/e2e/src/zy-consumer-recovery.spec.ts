import { auditWithdrawals, chaosFailures, chaosPartners, chaosReport, pollUntil, requireEnv, WithdrawalLoad } from '@partner/testing';
import { gatewayAdminUrl, gatewayUrl, listEvents, newPartner, newUser, sendWithdrawals } from './support/sandbox';

/**
 * No consumer dies silently (issue 24, ADR 0015), against the stack `npm test` runs:
 * - a GRACEFUL broker restart (SIGTERM, as a rolling upgrade or a failover does; the one after which the
 *   events service's consumer once crashed for good and the feed stopped) while withdrawals flow: every
 *   withdrawal ends with exactly one created, one sent and one final event in its partner's feed;
 * - an app that dies behind the supervisor's back is started again by the stack's supervisor, and the
 *   feed goes on.
 * Named zy- so that the sequencer runs it after the suites that need a quiet stack and before zz-chaos.
 */
async function control(action: 'stop' | 'restart' | 'crash', target: string): Promise<void> {
  const res = await fetch(`${requireEnv('STACK_CONTROL_URL')}/${action}/${target}`, { method: 'POST', signal: AbortSignal.timeout(150_000) });
  if (res.status !== 204) throw new Error(`${action} ${target}: ${res.status} ${await res.text()}`);
}

describe('consumers after a graceful broker restart and an unexpected exit', () => {
  it('a graceful broker restart during a load of withdrawals: the feed catches up with every event exactly once', async () => {
    const gateway = gatewayUrl();
    const databaseUrl = requireEnv('DATABASE_URL');
    const partners = await chaosPartners(gateway, requireEnv('ADMIN_API_KEY'), 3);
    const load = new WithdrawalLoad(gateway, partners, { workers: 3, paceMs: 300, maxRequests: 1_000 });
    load.start();
    try {
      await load.progress(10);
      await control('stop', 'kafka');
      await control('restart', 'kafka');
      // The load goes on against the recovered stack: these withdrawals' events are published after the restart.
      const before = load.requests;
      await load.progress(20);
      expect(load.requests).toBeGreaterThanOrEqual(before + 20);
    } finally {
      await load.stop();
    }

    const retry = await load.retryUnanswered(120_000);
    const audit = await auditWithdrawals({ gatewayUrl: gateway, databaseUrl, partners, accepted: load.accepted.values(), settleTimeoutMs: 120_000 });
    console.log(chaosReport(['graceful Kafka broker restart (SIGTERM, start)'], load, retry, audit));

    expect(chaosFailures(load, retry, audit)).toEqual([]);
    expect(audit.accepted).toBe(load.requests);
    const finals = (audit.eventsPerState.get('settled') ?? 0) + (audit.eventsPerState.get('failed') ?? 0);
    expect({ created: audit.eventsPerState.get('created'), sent: audit.eventsPerState.get('sent'), final: finals }).toEqual({
      created: load.requests,
      sent: load.requests,
      final: load.requests,
    });
    expect({ duplicates: audit.duplicates, missing: audit.missing }).toEqual({ duplicates: 0, missing: 0 });
  }, 600_000);

  it('an app that exits unexpectedly is started again by the supervisor, and the feed goes on', async () => {
    await control('crash', 'events');
    expect((await fetch(`${gatewayAdminUrl()}/readyz`)).status).toBe(200);

    const { api } = await newPartner('after the events service crashed');
    const document = await newUser(api, 10_000_000);
    await sendWithdrawals(api, document, 2);
    const events = await pollUntil('both withdrawals settled in the feed', () => listEvents(api, ''), (all) => all.filter((e) => e.state === 'settled').length === 2, {
      timeoutMs: 60_000,
    });
    expect(events.map((e) => e.state).sort()).toEqual(['created', 'created', 'sent', 'sent', 'settled', 'settled']);
  }, 180_000);
});
