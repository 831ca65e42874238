import { pollUntil, requireEnv } from '@partner/testing';
import { auditFeeds, chaosPartners, PartnerLoad } from '@partner/chaos';
import { gatewayAdminUrl, gatewayUrl, listEvents, newPartner, newUser, sendWithdrawals } from './support/sandbox';
import { stackControl } from './support/stack-control';

/**
 * No consumer dies silently (issue 24, ADR 0015), against the stack `npm test` runs:
 * - a GRACEFUL broker restart (SIGTERM, as a rolling upgrade or a failover does; the one after which the
 *   events service's consumer once crashed for good and the feed stopped) while withdrawals flow: every
 *   withdrawal ends with exactly one created, one sent and one final event in its partner's feed;
 * - an app that dies behind the supervisor's back is started again by the stack's supervisor, and the
 *   feed goes on.
 * The sequencer (tools/e2e/sequencer.js) runs it after the suites that need a quiet stack and before chaos.
 */

describe('consumers after a graceful broker restart and an unexpected exit', () => {
  it('a graceful broker restart during a load of withdrawals: the feed catches up with every event exactly once', async () => {
    const gateway = gatewayUrl();
    const databaseUrl = requireEnv('DATABASE_URL');
    const adminKey = requireEnv('ADMIN_API_KEY');
    const partners = await chaosPartners(gateway, adminKey, 3, 2, 1_000_000_000);
    // Withdrawals only, on balances that do not run out: what is audited here is the feed, not contention.
    const load = new PartnerLoad(gateway, partners, adminKey, {
      rate: 8,
      maxRequests: 1_000,
      mix: { withdrawal: 1, credit: 0, pix_key_create: 0, pix_key_delete: 0, customer: 0, pix_in: 0, pix_refund: 0, ack: 0 },
    });
    load.start();
    try {
      await load.progress(10);
      await stackControl('stop', 'kafka');
      await stackControl('restart', 'kafka');
      // The load goes on against the recovered stack: these withdrawals' events are published after the restart.
      await load.firstSuccess(120_000);
      await load.progress(20);
    } finally {
      await load.stop();
    }

    const retry = await load.retryUnanswered(120_000);
    expect(retry.unresolved).toEqual([]);
    expect(load.unexpected).toEqual([]);
    const feeds = await auditFeeds({ gatewayUrl: gateway, databaseUrl, partners, ledger: load.ledger, settleTimeoutMs: 180_000 });
    expect(feeds.failures).toEqual([]);
    const withdrawals = feeds.paths.find((p) => p.path === 'withdrawals');
    expect(withdrawals?.accepted).toBeGreaterThanOrEqual(30);
    expect({ duplicates: withdrawals?.duplicates, missing: withdrawals?.missing, inFeed: withdrawals?.feedResources }).toEqual({
      duplicates: 0,
      missing: 0,
      inFeed: withdrawals?.database,
    });
  }, 600_000);

  it('an app that exits unexpectedly is started again by the supervisor, and the feed goes on', async () => {
    await stackControl('crash', 'events');
    expect((await fetch(`${gatewayAdminUrl()}/readyz`)).status).toBe(200);

    const { api } = await newPartner('after the events service crashed');
    const document = await newUser(api, 10_000_000);
    await sendWithdrawals(api, document, 2);
    const events = await pollUntil(
      'both withdrawals settled in the feed',
      () => listEvents(api, ''),
      (all) => all.filter((e) => e.state === 'settled').length === 2,
      {
        timeoutMs: 60_000,
      },
    );
    expect(events.map((e) => e.state).sort()).toEqual(['created', 'created', 'sent', 'sent', 'settled', 'settled']);
  }, 180_000);
});
