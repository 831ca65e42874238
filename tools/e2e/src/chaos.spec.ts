import { GATEWAY, NETWORKS, SERVICE_NAMES } from '@partner/contracts';
import { pollUntil, requireEnv } from '@partner/testing';
import {
  auditBrl,
  auditChain,
  auditFeeds,
  auditMoney,
  ChaosOutcome,
  chaosFailures,
  chaosPartners,
  chainAuditLine,
  chaosReport,
  databaseOutage,
  FaultRecovery,
  latestBlocks,
  PartnerLoad,
} from '@partner/chaos';
import { gatewayAdminUrl, gatewayUrl } from './support/sandbox';
import { stackControl } from './support/stack-control';

/**
 * The short version of `npm run chaos`, against the stack `npm test` runs: while a mixed load runs
 * (withdrawals on few users whose balances run out, operator credits, Pix key creations and deletions,
 * business customers, Pix inflows, feed acknowledgements), every app is killed with -9 and restarted, one
 * service is stopped with SIGTERM and restarted, the broker is stopped gracefully and restarted, then
 * killed with -9 and restarted, and every database connection is terminated for 3 s (a PostgreSQL restart
 * as the services see it; the server itself is shared with other work on this machine). Afterwards every
 * request without a final answer is retried with its own idempotency key, then the money audit (per user,
 * balance = credits − accepted withdrawals with their fees, the ledger sums to it, never below zero) and
 * the feed audit of every path (each event exactly once in its partner's sequence, counted against what
 * the API accepted), the chain audit (read off the local nodes npm test runs, from the block this suite
 * started at: every settled withdrawal one transfer of its amount to its address, a failed one none, no
 * other transfer from the hot wallet, its outflow = the settled amounts), and each recovery within its bound.
 *
 * The sequencer (tools/e2e/sequencer.js) runs it after every suite that sends requests: the faults would
 * otherwise break theirs.
 */
const APPS = [GATEWAY.name, ...SERVICE_NAMES];
// The full run's bounds (10 s an app, 20 s the broker) three times over: npm test's stack logs at debug
// level on a machine shared with other work, where timings vary threefold.
const APP_RECOVERY_MS = 30_000;
const BROKER_RECOVERY_MS = 60_000;

describe('short chaos: kill -9 of every app, SIGTERM of a service, graceful and kill -9 broker restarts, and a database outage, under a mixed load', () => {
  it('loses nothing, duplicates nothing, overdraws no one, pays nothing twice: the money, every feed path and the chain audit clean', async () => {
    const gateway = gatewayUrl();
    const databaseUrl = requireEnv('DATABASE_URL');
    const adminKey = requireEnv('ADMIN_API_KEY');
    const partners = await chaosPartners(gateway, adminKey, 3, 2);
    // The chains npm test runs (the nodes themselves); other suites paid before this block.
    const nodes = Object.fromEntries(
      NETWORKS.map((n) => [n, { rpcUrl: requireEnv(`CHAIN_RPC_URL_${n}`), token: requireEnv(`USDT_CONTRACT_${n}`) as `0x${string}` }]),
    );
    const fromBlocks = await latestBlocks(nodes);
    // ~12 requests/s; the cap bounds the run should restarts be slow, and it is far above what the faults take.
    const load = new PartnerLoad(gateway, partners, adminKey, { rate: 12, maxRequests: 4_000, operatorUrls: [gatewayAdminUrl()] });
    const faults: FaultRecovery[] = [];
    const fault = async (label: string, limitMs: number, inject: () => Promise<void>, recover: () => Promise<void>) => {
      await inject();
      const started = Date.now();
      await recover();
      await load.firstSuccess(120_000);
      faults.push({ label, recoveryMs: Date.now() - started, limitMs });
      await load.progress(20); // the load goes on against the recovered stack before the next fault
    };
    load.start();
    try {
      await load.progress(20);
      for (const target of APPS)
        await fault(
          `kill -9 ${target}, restart`,
          APP_RECOVERY_MS,
          () => stackControl('kill', target),
          () => stackControl('restart', target),
        );
      await fault(
        'SIGTERM withdrawals, restart',
        APP_RECOVERY_MS,
        () => stackControl('stop', 'withdrawals'),
        () => stackControl('restart', 'withdrawals'),
      );
      await fault(
        'graceful broker restart',
        BROKER_RECOVERY_MS,
        () => stackControl('stop', 'kafka'),
        () => stackControl('restart', 'kafka'),
      );
      await fault(
        'kill -9 of the broker, restart',
        BROKER_RECOVERY_MS,
        () => stackControl('kill', 'kafka'),
        () => stackControl('restart', 'kafka'),
      );
      await fault(
        'database outage (every connection terminated for 3 s)',
        BROKER_RECOVERY_MS,
        async () => void (await databaseOutage(databaseUrl, 3_000)),
        () =>
          pollUntil(
            'the stack ready after the database outage',
            () => fetch(`${gatewayAdminUrl()}/readyz`).then((r) => r.status),
            (s) => s === 200,
            { timeoutMs: 60_000, intervalMs: 250 },
          ).then(() => undefined),
      );
    } finally {
      await load.stop();
    }

    const retry = await load.retryUnanswered(120_000);
    const feeds = await auditFeeds({ gatewayUrl: gateway, databaseUrl, partners, ledger: load.ledger, settleTimeoutMs: 180_000 });
    const money = await auditMoney({
      gatewayUrl: gateway,
      operatorUrl: gatewayAdminUrl(),
      databaseUrl,
      adminKey,
      partners,
      ledger: load.ledger,
    });
    const chain = await auditChain({
      gatewayUrl: gateway,
      operatorUrl: gatewayAdminUrl(),
      adminKey,
      databaseUrl,
      chains: Object.fromEntries(NETWORKS.map((n) => [n, { ...nodes[n], fromBlock: fromBlocks[n] }])),
      ledger: load.ledger,
      settleTimeoutMs: 180_000,
    });
    const brl = await auditBrl({ databaseUrl, partners, ledger: load.ledger });
    const outcome: ChaosOutcome = { faults, load, retry, money, brl, feeds, chain };
    console.log(chaosReport(outcome));

    expect(chaosFailures(outcome)).toEqual([]);
    expect(faults.map((f) => f.label)).toHaveLength(APPS.length + 4);
    expect({ users: money.users, overdraft: money.overdraft, drift: money.drift }).toEqual({ users: 6, overdraft: 0, drift: 0 });
    // Every path carried load and ended audited: accepted resources, each in the database and in the feed.
    for (const path of feeds.paths) {
      expect({ path: path.path, some: path.accepted > 0, duplicates: path.duplicates, missing: path.missing }).toEqual({
        path: path.path,
        some: true,
        duplicates: 0,
        missing: 0,
      });
      expect(path.feedResources).toBe(path.database);
    }
    expect(feeds.acknowledged).toBeGreaterThan(0);
    // Refunds were returned, each one's money moved once (the BRL audit's failures are among chaosFailures).
    expect(brl.refunds.success).toBeGreaterThan(0);
    expect(brl.refunds.open).toBe(0);
    // On chain: every accepted withdrawal paid once if settled, not at all if failed; nothing else left the wallet.
    expect(chainAuditLine(chain)).toBe(chainAuditLine({ paid: chain.paid, paidTwice: 0, missing: 0, drift: 0 }));
    expect(chain.paid).toBeGreaterThan(0);
    expect(chain.failures).toEqual([]);
  }, 1_200_000);
});
