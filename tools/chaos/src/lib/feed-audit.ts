import type { PartnerEvent } from '@partner/contracts';
import { failureList, onConnection } from './audit-support';
import { callGateway, ChaosPartner, LoadLedger } from './partner-load';

/**
 * The feed verdict of a fault-injection run, path by path (withdrawals, Pix keys, business customers,
 * Pix inflows, their refunds): every resource the services hold for the run's partners (their own tables) has in its
 * partner's feed exactly the events its final state implies, each once, and nothing else is in the feed;
 * the counts are held against what the API accepted. Each partner's sequence is 1..n without a gap or a
 * repeat, and every acknowledged event reads back as delivered.
 */
export interface PathCounts {
  path: string;
  /** What the clients were answered as accepted (for inflows: at least this many, at most `accepted + unknown`). */
  accepted: number;
  unknown: number;
  database: number;
  feedResources: number;
  eventsPerState: Map<string, number>;
  duplicates: number;
  missing: number;
}

export interface FeedAudit {
  paths: PathCounts[];
  events: number;
  acknowledged: number;
  failures: string[];
}

const PAGE = 1000;

/**
 * A partner's feed read the way a partner integrates it: page after page from a cursor kept between
 * calls, never from the start again. `readNew` answers the events that arrived since the last call.
 */
export class FeedFollower {
  readonly events: PartnerEvent[] = [];
  private cursor: string | undefined;

  constructor(
    private readonly gatewayUrl: string,
    private readonly apiKey: string,
  ) {}

  async readNew(): Promise<PartnerEvent[]> {
    const fresh: PartnerEvent[] = [];
    for (;;) {
      const query = `limit=${PAGE}${this.cursor ? `&cursor=${this.cursor}` : ''}`;
      const res = await callGateway(this.gatewayUrl, 'GET', `/partner/v1/events?${query}`, { 'x-api-key': this.apiKey });
      if (res.status !== 200) throw new Error(`feed: ${res.status} ${JSON.stringify(res.body)}`);
      const page = res.body?.events as PartnerEvent[];
      this.cursor = String(res.body?.next_cursor);
      fresh.push(...page);
      if (page.length < PAGE) break;
    }
    this.events.push(...fresh);
    return fresh;
  }
}

/** A resource as its service holds it: which partner, and the events its state implies (undefined while not final). */
interface Resource {
  partnerId: string;
  id: string;
  expected: string[] | undefined;
}

interface PathSpec {
  path: string;
  type: PartnerEvent['type'];
  /** The run's resources of this path, from the service's table. */
  query: string;
  expected: (state: string) => string[] | undefined;
  /** States of `expected` a resource may have skipped (a refund whose first answer read it settled already). */
  skippable?: string[];
  /** What the API accepted, by partner. */
  accepted: (ledger: LoadLedger, partnerId: string) => number;
  unknown?: (ledger: LoadLedger, partnerId: string) => number;
}

const PATHS: PathSpec[] = [
  {
    path: 'withdrawals',
    type: 'usdt_withdrawal',
    // A withdrawal refused before signing (its destination: destination_refused, address_blocked; or rejected
    // while it waited for approval) was never sent: it has no nonce. One above its partner's approval threshold began
    // in pending_approval; an approved one then went on to created, a rejected one straight to failed.
    query: `SELECT w.partner_id, w.id::text AS id,
                   coalesce(a.status || ':', '') ||
                   CASE WHEN w.state = 'failed' AND w.nonce IS NULL THEN 'failed before signing' ELSE w.state END AS state
            FROM withdrawals.withdrawals w LEFT JOIN withdrawals.withdrawal_approvals a ON a.withdrawal_id = w.id
            WHERE w.partner_id = ANY($1::uuid[])`,
    expected: (state) => withdrawalEvents(state),
    accepted: (l, p) => [...l.withdrawals.values()].filter((w) => w.partner.id === p).length,
  },
  {
    path: 'pix keys',
    type: 'pix_key',
    query: 'SELECT partner_id, id::text AS id, state FROM pix_keys.pix_keys WHERE partner_id = ANY($1::uuid[])',
    expected: (state) =>
      ({
        registered: ['pending', 'registered'],
        failed: ['pending', 'failed'],
        canceled: ['pending', 'registered', 'deleting', 'canceled'],
      })[state],
    accepted: (l, p) => l.keyCreates.get(p)?.size ?? 0,
  },
  {
    path: 'customers',
    type: 'business_customer',
    query: "SELECT partner_id, id::text AS id, 'registered' AS state FROM customers.customers WHERE partner_id = ANY($1::uuid[])",
    expected: () => ['registered'],
    accepted: (l, p) => l.customers.get(p)?.size ?? 0,
  },
  {
    path: 'inflows',
    type: 'pix_in',
    // With how many refunds of it were returned: each one is an event of the inflow.
    query: `SELECT i.partner_id, i.end_to_end_id AS id,
                   i.status || ':' || (SELECT count(*) FROM inflows.pix_in_refunds r WHERE r.end_to_end_id = i.end_to_end_id AND r.status = 'success') AS state
            FROM inflows.pix_inflows i WHERE i.partner_id = ANY($1::uuid[])`,
    expected: (state) => inflowEvents(state),
    accepted: (l, p) => l.inflows.get(p)?.size ?? 0,
    unknown: (l, p) => l.inflowsUnknown.get(p) ?? 0,
  },
  {
    path: 'refunds',
    type: 'pix_in_refund',
    query: 'SELECT partner_id, id::text AS id, status AS state FROM inflows.pix_in_refunds WHERE partner_id = ANY($1::uuid[])',
    expected: (state) => ({ success: ['created', 'processing', 'success'], failed: ['created', 'processing', 'failed'] })[state],
    skippable: ['processing'],
    accepted: (l, p) => new Set([...l.refunds.values()].filter((r) => r.partner.id === p).map((r) => r.id)).size,
  },
];

/**
 * The events of an inflow from `status:returned refunds`: credited, then one per refund returned
 * (`partially_returned`, the last `returned` when they returned it all); undefined while it is not final.
 */
export function inflowEvents(state: string): string[] | undefined {
  const [status, count] = state.split(':');
  const returned = Number(count);
  const credited = ['processing', 'approved', 'success', 'credited'];
  const partial = (n: number) => Array<string>(n).fill('partially_returned');
  switch (status) {
    case 'credited':
      return returned === 0 ? credited : undefined;
    case 'partially_returned':
      return returned > 0 ? [...credited, ...partial(returned)] : undefined;
    case 'returned':
      return returned > 0 ? [...credited, ...partial(returned - 1), 'returned'] : undefined;
    case 'denied':
      return ['processing', 'denied'];
    case 'failed':
      return ['processing', 'approved', 'failed'];
    default:
      return undefined;
  }
}

/**
 * The events a withdrawal's final state implies, from `[approval status:]state` (`failed before signing` for one
 * failed without a nonce); undefined while it is not final.
 */
export function withdrawalEvents(state: string): string[] | undefined {
  const colon = state.indexOf(':');
  const approval = colon < 0 ? undefined : state.slice(0, colon);
  const final = state.slice(colon + 1);
  if (approval === 'pending_approval') return undefined;
  if (approval === 'rejected') return final === 'failed before signing' ? ['pending_approval', 'failed'] : undefined;
  const after =
    final === 'failed before signing'
      ? ['created', 'failed']
      : final === 'settled' || final === 'failed'
        ? ['created', 'sent', final]
        : undefined;
  return after && (approval === 'approved' ? ['pending_approval', ...after] : after);
}

/** How many of `got` no expected state accounts for (duplicates), and how many expected ones are not there, state by state. */
export function compareStates(got: string[], expected: string[]): { extra: number; absent: number } {
  const left = new Map<string, number>();
  for (const s of expected) left.set(s, (left.get(s) ?? 0) + 1);
  let extra = 0;
  for (const s of got) {
    const n = left.get(s) ?? 0;
    if (n > 0) left.set(s, n - 1);
    else extra++;
  }
  return { extra, absent: [...left.values()].reduce((sum, n) => sum + n, 0) };
}

function readResources(databaseUrl: string, partnerIds: string[]): Promise<Map<string, Resource[]>> {
  return onConnection(databaseUrl, async (db) => {
    const out = new Map<string, Resource[]>();
    for (const spec of PATHS) {
      const { rows } = await db.query<{ partner_id: string; id: string; state: string }>(spec.query, [partnerIds]);
      out.set(
        spec.path,
        rows.map((r) => ({ partnerId: r.partner_id, id: r.id.trim(), expected: spec.expected(r.state) })),
      );
    }
    return out;
  });
}

/** The path's events in the feeds, by resource, in feed order. */
function statesByResource(feeds: Map<string, FeedFollower>, type: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const [partnerId, follower] of feeds) {
    for (const e of follower.events) {
      if (e.type !== type) continue;
      const key = `${partnerId} ${e.resource_id}`;
      out.set(key, [...(out.get(key) ?? []), e.state]);
    }
  }
  return out;
}

/**
 * Waits (poll, with a deadline) until every resource of the run is final in its service and has all its
 * events in the feed, reads the feeds once more after a quiet moment so that a late duplicate would show,
 * then checks.
 */
export async function auditFeeds(options: {
  gatewayUrl: string;
  databaseUrl: string;
  partners: ChaosPartner[];
  ledger: LoadLedger;
  settleTimeoutMs: number;
  quietMs?: number;
}): Promise<FeedAudit> {
  const { gatewayUrl, databaseUrl, partners, ledger, settleTimeoutMs, quietMs = 3_000 } = options;
  const partnerIds = partners.map((p) => p.id);
  const feeds = new Map(partners.map((p) => [p.id, new FeedFollower(gatewayUrl, p.apiKey)]));
  const deadline = Date.now() + settleTimeoutMs;
  let resources: Map<string, Resource[]>;
  for (;;) {
    for (const follower of feeds.values()) await follower.readNew();
    resources = await readResources(databaseUrl, partnerIds);
    const settled = PATHS.every((spec) => {
      const inFeed = statesByResource(feeds, spec.type);
      // Every state it cannot have skipped is in the feed, as often as expected.
      return (resources.get(spec.path) ?? []).every((r) => {
        if (!r.expected) return false;
        const required = r.expected.filter((s) => !spec.skippable?.includes(s));
        return compareStates(inFeed.get(`${r.partnerId} ${r.id}`) ?? [], required).absent === 0;
      });
    });
    if (settled || Date.now() > deadline) break;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
  await new Promise((resolve) => setTimeout(resolve, quietMs));
  for (const follower of feeds.values()) await follower.readNew();

  const { failures, fail } = failureList();

  // Exactly once in its partner's sequence: ids never repeat, sequences are 1..n in order.
  const seenIds = new Set<string>();
  let events = 0;
  for (const [partnerId, follower] of feeds) {
    events += follower.events.length;
    for (const e of follower.events) {
      if (seenIds.has(e.id)) fail(`partner ${partnerId}: event ${e.id} (sequence ${e.sequence}) read twice`);
      seenIds.add(e.id);
    }
    const sequences = follower.events.map((e) => e.sequence);
    if (sequences.some((s, i) => s !== i + 1)) fail(`partner ${partnerId}: sequence is not 1..${sequences.length} in order`);
  }

  const paths: PathCounts[] = [];
  for (const spec of PATHS) {
    const inFeed = statesByResource(feeds, spec.type);
    const held = resources.get(spec.path) ?? [];
    const counts: PathCounts = {
      path: spec.path,
      accepted: 0,
      unknown: 0,
      database: held.length,
      feedResources: inFeed.size,
      eventsPerState: new Map(),
      duplicates: 0,
      missing: 0,
    };
    for (const states of inFeed.values()) for (const s of states) counts.eventsPerState.set(s, (counts.eventsPerState.get(s) ?? 0) + 1);
    const known = new Set(held.map((r) => `${r.partnerId} ${r.id}`));
    for (const key of inFeed.keys()) if (!known.has(key)) fail(`${spec.path}: feed events for ${key}, which its service does not hold`);
    for (const r of held) {
      const key = `${r.partnerId} ${r.id}`;
      const got = inFeed.get(key) ?? [];
      if (!r.expected) {
        counts.missing++;
        fail(`${spec.path}: ${key} not final after ${settleTimeoutMs} ms`);
        continue;
      }
      const expected = r.expected.filter((s) => !spec.skippable?.includes(s) || got.includes(s));
      const { extra, absent } = compareStates(got, expected);
      counts.duplicates += extra;
      counts.missing += absent;
      if (extra > 0 || absent > 0 || got.join() !== expected.join())
        fail(`${spec.path}: ${key} has events [${got.join(', ')}], expected [${expected.join(', ')}]`);
    }
    for (const partnerId of partnerIds) {
      const accepted = spec.accepted(ledger, partnerId);
      const unknown = spec.unknown?.(ledger, partnerId) ?? 0;
      counts.accepted += accepted;
      counts.unknown += unknown;
      const database = held.filter((r) => r.partnerId === partnerId).length;
      if (database < accepted || database > accepted + unknown) {
        fail(
          `${spec.path}: partner ${partnerId}: ${database} in the database, the API accepted ${accepted}${unknown ? ` (+ up to ${unknown} without a final answer)` : ''}`,
        );
      }
    }
    paths.push(counts);
  }

  // Pix key deletions: every deletion answered 202 ended with its key canceled (a 202 is one key's deletion).
  const deletes = [...ledger.keyDeletes.values()].reduce((n, s) => n + s.size, 0);
  const canceled = (resources.get('pix keys') ?? []).filter((r) => r.expected?.includes('canceled')).length;
  if (deletes !== canceled) fail(`pix keys: ${deletes} deletions answered 202, ${canceled} keys canceled`);

  // Acknowledged events read back delivered.
  let acknowledged = 0;
  for (const [partnerId, ids] of ledger.acknowledged) {
    const delivered = new Map((feeds.get(partnerId)?.events ?? []).map((e) => [e.id, e.delivered]));
    for (const id of ids) {
      acknowledged++;
      if (delivered.get(id) !== true)
        fail(`partner ${partnerId}: event ${id} acknowledged but reads ${delivered.has(id) ? 'undelivered' : 'absent'}`);
    }
  }
  return { paths, events, acknowledged, failures };
}
