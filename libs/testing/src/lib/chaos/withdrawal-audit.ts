import type { PartnerEvent } from '@partner/contracts';
import { Client } from 'pg';
import { AcceptedWithdrawal, callGateway, ChaosPartner } from './withdrawal-load';

/**
 * The verdict of a fault-injection run: every accepted withdrawal final, and the feed holding exactly
 * one created, one sent and one final event for each, none for a withdrawal no client was told of.
 */
export interface WithdrawalAudit {
  accepted: number;
  /** Withdrawals in the database for the run's partners; open: not settled or failed. */
  database: { total: number; open: number; unknownToClients: number };
  eventsPerState: Map<string, number>;
  duplicates: number;
  missing: number;
  /** Empty when every invariant holds; otherwise what broke (at most 50 lines). */
  failures: string[];
}

const FINAL = new Set(['settled', 'failed']);
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

/**
 * Follows every partner's feed until each accepted withdrawal has a final event (or the deadline
 * passes), reads once more after a quiet moment so a late duplicate would show, and checks the feeds
 * and the database against what the clients were answered.
 */
export async function auditWithdrawals(options: {
  gatewayUrl: string;
  databaseUrl: string;
  partners: ChaosPartner[];
  accepted: Iterable<AcceptedWithdrawal>;
  settleTimeoutMs: number;
  quietMs?: number;
}): Promise<WithdrawalAudit> {
  const { gatewayUrl, databaseUrl, partners, settleTimeoutMs, quietMs = 3_000 } = options;
  const expected = new Map<string, Set<string>>(partners.map((p) => [p.id, new Set<string>()]));
  const acceptedIds = new Set<number>();
  for (const { partner, id } of options.accepted) {
    expected.get(partner.id)?.add(String(id));
    acceptedIds.add(id);
  }
  const feeds = partners.map((partner) => ({ partner, follower: new FeedFollower(gatewayUrl, partner.apiKey) }));
  const deadline = Date.now() + settleTimeoutMs;
  for (const { partner, follower } of feeds) {
    const ids = expected.get(partner.id) ?? new Set<string>();
    const finals = new Set<string>();
    for (;;) {
      for (const e of await follower.readNew()) {
        if (e.type === 'usdt_withdrawal' && FINAL.has(e.state)) finals.add(e.resource_id);
      }
      if ([...ids].every((id) => finals.has(id)) || Date.now() > deadline) break;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
  await new Promise((resolve) => setTimeout(resolve, quietMs));
  for (const { follower } of feeds) await follower.readNew();

  const failures: string[] = [];
  const fail = (line: string) => {
    if (failures.length < 50) failures.push(line);
  };
  const eventsPerState = new Map<string, number>();
  const seenEventIds = new Set<string>();
  const seenSequences = new Set<string>();
  let duplicates = 0;
  let missing = 0;
  for (const { partner, follower } of feeds) {
    const ids = expected.get(partner.id) ?? new Set<string>();
    const events = follower.events.filter((e) => e.type === 'usdt_withdrawal');
    const perResourceState = new Map<string, number>();
    for (const e of events) {
      if (seenEventIds.has(e.id) || seenSequences.has(`${partner.id} ${e.sequence}`)) {
        duplicates++;
        fail(`partner ${partner.id}: event ${e.id} (sequence ${e.sequence}) read twice`);
        continue; // counted once here, not again as a second event for its state below
      }
      seenEventIds.add(e.id);
      seenSequences.add(`${partner.id} ${e.sequence}`);
      eventsPerState.set(e.state, (eventsPerState.get(e.state) ?? 0) + 1);
      const key = `${e.resource_id} ${FINAL.has(e.state) ? 'final' : e.state}`;
      perResourceState.set(key, (perResourceState.get(key) ?? 0) + 1);
      if (!ids.has(e.resource_id)) fail(`partner ${partner.id}: event for withdrawal ${e.resource_id}, which no client was answered for`);
    }
    for (const [key, n] of perResourceState) {
      if (n > 1) {
        duplicates += n - 1;
        fail(`partner ${partner.id}: ${n} events for ${key}`);
      }
    }
    for (const id of ids) {
      for (const state of ['created', 'sent', 'final']) {
        if (!perResourceState.has(`${id} ${state}`)) {
          missing++;
          fail(`partner ${partner.id}: withdrawal ${id} has no ${state} event`);
        }
      }
    }
    // The per-partner sequence is gap-free: whatever the faults, the feed numbers 1..n with no hole.
    const sequences = follower.events.map((e) => e.sequence);
    if (sequences.some((s, i) => s !== i + 1)) fail(`partner ${partner.id}: sequence is not 1..${sequences.length} in order`);
  }

  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  let rows: { id: number; state: string }[];
  try {
    rows = (await db.query<{ id: number; state: string }>('SELECT id, state FROM withdrawals.withdrawals WHERE partner_id = ANY($1::uuid[])', [partners.map((p) => p.id)])).rows;
  } finally {
    await db.end();
  }
  const unknownToClients = rows.filter((r) => !acceptedIds.has(Number(r.id))).length;
  const open = rows.filter((r) => !FINAL.has(r.state)).length;
  if (unknownToClients > 0) fail(`${unknownToClients} withdrawals in the database that no client was answered for`);
  if (open > 0) fail(`${open} withdrawals not final after ${settleTimeoutMs} ms`);
  if (rows.length !== acceptedIds.size) fail(`${rows.length} withdrawals in the database, ${acceptedIds.size} accepted`);

  return { accepted: acceptedIds.size, database: { total: rows.length, open, unknownToClients }, eventsPerState, duplicates, missing, failures };
}
