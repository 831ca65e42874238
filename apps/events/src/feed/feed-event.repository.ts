import { Injectable } from '@nestjs/common';
import { DEFAULT_EVENTS_PAGE, FeedEvent, FeedEventType, PartnerEvent, PartnerId } from '@partner/contracts';
import { Database, statement, UnitOfWork } from '@partner/db';

/**
 * A row of feed_events as the list query selects it. Times come as Unix seconds computed by PostgreSQL
 * and delivery as a boolean: parsing a timestamp into a Date per row is a large share of the feed's CPU
 * in the events service.
 */
interface Row {
  id: string;
  /** int8: pg hands it over as a string. */
  sequence: string;
  type: string;
  state: string;
  resource_id: string;
  /** int8 Unix seconds of occurred_at, as a string. */
  created_at: string;
  /** jsonb, parsed by the driver: always an object, written from an event's `resource`. */
  data: Record<string, unknown>;
  delivered: boolean;
  request_id: string | null;
}

/** A domain event as the feed stores it: the event, and the request that caused it when one did. */
export type FeedEntry = FeedEvent & { request_id?: string | null };

const toPartnerEvent = (r: Row): PartnerEvent => ({
  id: r.id,
  sequence: Number(r.sequence),
  type: r.type,
  state: r.state,
  resource_id: r.resource_id,
  created_at: Number(r.created_at),
  delivered: r.delivered,
  request_id: r.request_id,
  data: r.data,
});

export interface FeedFilter {
  delivered?: boolean;
  type?: FeedEventType;
  /** Only events with a greater sequence. */
  afterSequence?: number;
  limit?: number;
}

/**
 * The list query, one statement per filter combination (8 in all), each prepared once per connection.
 * The delivered condition is literal SQL, never a parameter: only `delivered_at IS NULL` written out in
 * the text lets PostgreSQL use the partial indexes of undelivered events (migration
 * 20261122150000_feed_undelivered_partial_indexes) in every plan, generic ones included.
 */
function listStatement(delivered: boolean | undefined, byType: boolean): { name: string; text: string } {
  const deliveredSql = delivered === undefined ? '' : delivered ? 'AND delivered_at IS NOT NULL' : 'AND delivered_at IS NULL';
  return {
    name: `feed-list-${delivered ?? 'any'}-${byType ? 'type' : 'all'}`,
    text: `SELECT id::text AS id, sequence, type, state, resource_id, floor(extract(epoch FROM occurred_at))::int8 AS created_at, data,
                  delivered_at IS NOT NULL AS delivered, request_id
           FROM feed_events
           WHERE partner_id = $1::uuid ${deliveredSql} ${byType ? 'AND type = $4::text' : ''} AND sequence > $2::bigint
           ORDER BY sequence
           LIMIT $3::int`,
  };
}

/** Raised inside a projection transaction to roll it back: some event id was taken by a concurrent insert. */
class ConcurrentDuplicate extends Error {
  constructor() {
    super('an event id of the batch was inserted concurrently under another partner; batch rolled back');
  }
}

// The projection's statements (see insertBatch), prepared once per connection.
// ON CONFLICT DO UPDATE locks each counter row, existing or new, in the SELECT's (sorted) order, and
// returns its latest committed value even when newer than the statement's snapshot.
const LOCK_COUNTERS = statement(
  'feed_lock_counters',
  `INSERT INTO partner_sequences (partner_id, last_sequence)
   SELECT p, 0 FROM unnest($1::uuid[]) AS p ORDER BY p
   ON CONFLICT (partner_id) DO UPDATE SET last_sequence = partner_sequences.last_sequence
   RETURNING partner_id::text AS partner_id, last_sequence`,
);
const STORED_IDS = statement('feed_stored_ids', 'SELECT id::text AS id FROM feed_events WHERE id = ANY($1::uuid[])');
// Every row and every counter in one statement.
const INSERT_EVENTS = statement(
  'feed_insert_events',
  `WITH inserted AS (
     INSERT INTO feed_events (id, partner_id, sequence, type, state, resource_id, occurred_at, data, request_id)
     SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::bigint[], $4::text[], $5::text[], $6::text[], $7::timestamptz[], $8::jsonb[], $11::text[])
     ON CONFLICT (id) DO NOTHING
     RETURNING 1
   ), counters AS (
     UPDATE partner_sequences AS s SET last_sequence = c.last_sequence
     FROM unnest($9::uuid[], $10::bigint[]) AS c(partner_id, last_sequence)
     WHERE s.partner_id = c.partner_id
   )
   SELECT count(*)::int AS inserted FROM inserted`,
);

const MARK_DELIVERED = statement(
  'feed-mark-delivered',
  `UPDATE feed_events SET delivered_at = COALESCE(delivered_at, $3::timestamptz)
   WHERE partner_id = $1::uuid AND id = ANY($2::uuid[])
   RETURNING id::text AS id`,
);

/** The partner feed. Every method takes the partner: a feed is never read across partners. */
@Injectable()
export class FeedEventRepository {
  /** The projection runs on the pg driver directly (no outbox in this service, so no relay). */
  private readonly unitOfWork: UnitOfWork;

  constructor(private readonly db: Database) {
    this.unitOfWork = new UnitOfWork(db);
  }

  /**
   * Stores a domain event once, numbered with the partner's next sequence; returns that sequence, or
   * undefined when the event id is already stored (a redelivery, which consumes no number).
   */
  async insertIfAbsent(partnerId: PartnerId, event: FeedEntry): Promise<number | undefined> {
    const [sequence] = await this.insertBatch([{ ...event, partner_id: partnerId }]);
    return sequence;
  }

  /**
   * Stores a batch of domain events (any partners) in ONE transaction; answers, per event in the given
   * order, the sequence it got, or undefined when its id was already stored or appears earlier in the
   * batch (a redelivery consumes no number). All or nothing: on failure no event of the batch is stored
   * and no number is taken.
   *
   * Guarantees, and why they hold:
   * - Gap-free per-partner numbering, committed in order: the counter rows of the batch's partners are
   *   locked first (created at 0 when missing) and held until commit, so two batches touching a partner
   *   run one after the other, and a rolled-back batch gives its numbers back. The rows are locked in
   *   sorted partner order within one statement, so two batches sharing partners cannot deadlock.
   * - Each event id stored once: the stored ids are looked up after the locks are held, in a new
   *   statement (so a new snapshot under READ COMMITTED): a copy committed by a batch we waited for is
   *   seen and dropped. Copies within the batch are dropped here too.
   *
   * Round trips: BEGIN, lock counters, look up ids, insert rows + update counters, COMMIT.
   */
  async insertBatch(events: FeedEntry[]): Promise<Array<number | undefined>> {
    if (events.length === 0) return [];
    const partners = [...new Set(events.map((e) => e.partner_id.toLowerCase()))].sort();
    const eventIds = [...new Set(events.map((e) => e.event_id.toLowerCase()))];
    return this.unitOfWork.run(async (tx) => {
      // ON CONFLICT DO UPDATE locks each row, existing or new, in the SELECT's (sorted) order, and returns
      // its latest committed value even when newer than the statement's snapshot.
      const { rows: counters } = await tx.query<{ partner_id: string; last_sequence: string }>(LOCK_COUNTERS, [partners]);
      const { rows: stored } = await tx.query<{ id: string }>(STORED_IDS, [eventIds]);

      const last = new Map(counters.map((c) => [c.partner_id, BigInt(c.last_sequence)]));
      const taken = new Set(stored.map((r) => r.id));
      const given: Array<number | undefined> = [];
      const rows: {
        ids: string[];
        partners: string[];
        sequences: string[];
        types: string[];
        states: string[];
        resources: string[];
        occurred: string[];
        data: string[];
        requests: Array<string | null>;
      } = { ids: [], partners: [], sequences: [], types: [], states: [], resources: [], occurred: [], data: [], requests: [] };
      for (const event of events) {
        const id = event.event_id.toLowerCase();
        if (taken.has(id)) {
          given.push(undefined);
          continue;
        }
        taken.add(id); // a later copy in the same batch is a redelivery too
        const partnerId = event.partner_id.toLowerCase();
        const sequence = (last.get(partnerId) ?? 0n) + 1n;
        last.set(partnerId, sequence);
        given.push(Number(sequence));
        rows.ids.push(id);
        rows.partners.push(partnerId);
        rows.sequences.push(sequence.toString());
        rows.types.push(event.type);
        rows.states.push(event.state);
        rows.resources.push(event.resource_id);
        // Through Date, as before: occurred_at keeps millisecond precision however the producer wrote it.
        rows.occurred.push(new Date(event.occurred_at).toISOString());
        rows.data.push(JSON.stringify(event.resource));
        rows.requests.push(event.request_id ?? null);
      }
      if (rows.ids.length === 0) return given; // only redeliveries: nothing to write, the counters are unchanged

      const touched = [...new Set(rows.partners)];
      // One statement for every row and every counter. ON CONFLICT (id) DO NOTHING only matters for an id
      // a concurrent batch of ANOTHER partner inserted (not serialised by our locks): then the count is
      // short, and the whole batch rolls back rather than leave a gap in the numbers.
      const {
        rows: [{ inserted }],
      } = await tx.query<{ inserted: number }>(INSERT_EVENTS, [
        rows.ids,
        rows.partners,
        rows.sequences,
        rows.types,
        rows.states,
        rows.resources,
        rows.occurred,
        rows.data,
        touched,
        touched.map((p) => String(last.get(p))),
        rows.requests,
      ]);
      if (inserted !== rows.ids.length) throw new ConcurrentDuplicate();
      return given;
    });
  }

  /**
   * The partner's events in sequence order, after `afterSequence` when given. Straight through pg, not
   * Prisma: this is the most-called query, and Prisma's own work per query is several times PostgreSQL's
   * here (0.95 ms against 0.25 ms for a page of 50, measured).
   */
  async list(partnerId: PartnerId, filter: FeedFilter): Promise<PartnerEvent[]> {
    const statement = listStatement(filter.delivered, filter.type !== undefined);
    const values: unknown[] = [partnerId, filter.afterSequence ?? 0, filter.limit ?? DEFAULT_EVENTS_PAGE];
    if (filter.type !== undefined) values.push(filter.type);
    const { rows } = await this.db.query<Row>(statement, values);
    return rows.map(toPartnerEvent);
  }

  /** Marks delivered; marking twice is fine (the first time is kept). False when the partner has no such event. */
  async markDelivered(partnerId: PartnerId, id: string): Promise<boolean> {
    return (await this.markManyDelivered(partnerId, [id], new Date())).size === 1;
  }

  /**
   * Marks many of the partner's events delivered in one statement, keeping the first delivery time of
   * those already delivered. Returns the ids the partner has (ids of other partners are untouched).
   */
  async markManyDelivered(partnerId: PartnerId, ids: string[], now: Date): Promise<Set<string>> {
    // Through pg like list(): PATCH and bulk ack follow every page a partner reads.
    const { rows } = await this.db.query<{ id: string }>(MARK_DELIVERED, [partnerId, ids, now]);
    return new Set(rows.map((r) => r.id));
  }

  /**
   * Removes at most `limit` events delivered before `deliveredBefore`, oldest deliveries first; returns
   * how many. Every partner's: retention is a maintenance job of the service, not a partner's request.
   */
  async deleteDeliveredBefore(deliveredBefore: Date, limit: number): Promise<number> {
    const { rowCount } = await this.db.query(
      `DELETE FROM feed_events WHERE id IN (
         SELECT id FROM feed_events WHERE delivered_at < $1 ORDER BY delivered_at LIMIT $2)`,
      [deliveredBefore, limit],
    );
    return rowCount ?? 0;
  }
}
