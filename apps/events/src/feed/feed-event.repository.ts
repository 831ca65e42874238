import { Injectable } from '@nestjs/common';
import { DEFAULT_EVENTS_PAGE, FeedEvent, FeedEventType, PartnerEvent } from '@partner/contracts';
import { Prisma } from '../generated/prisma/client';
import { PrismaService, TX_OPTIONS } from '../prisma/prisma.service';

type Row = Prisma.FeedEventGetPayload<object>;

const toPartnerEvent = (r: Row): PartnerEvent => ({
  id: r.id,
  sequence: Number(r.sequence),
  type: r.type,
  state: r.state,
  resource_id: r.resourceId,
  created_at: Math.floor(r.occurredAt.getTime() / 1000),
  delivered: r.deliveredAt !== null,
  data: r.data as Record<string, unknown>,
});

export interface FeedFilter {
  delivered?: boolean;
  type?: FeedEventType;
  /** Only events with a greater sequence. */
  afterSequence?: number;
  limit?: number;
}

/** Thrown inside the projection transaction to roll back the sequence taken for an event already stored. */
class AlreadyStored extends Error {}

/** The partner feed. Every method takes the partner: a feed is never read across partners. */
@Injectable()
export class FeedEventRepository {
  constructor(private readonly prisma: PrismaService) {}

  /**
   * Stores a domain event once, numbered with the partner's next sequence; returns that sequence, or
   * undefined when the event id is already stored (a redelivery, which consumes no number).
   *
   * The counter row is incremented first and stays locked until commit, so a partner's projections run
   * one after the other: numbers are given and committed in order, a reader paging by sequence never
   * sees n+1 before n, and a rolled-back insert gives its number back.
   */
  async insertIfAbsent(partnerId: string, event: FeedEvent): Promise<number | undefined> {
    try {
      return await this.prisma.$transaction(async (tx) => {
        // Cheap path for the common redelivery: no counter lock taken.
        if (await tx.feedEvent.findUnique({ where: { id: event.event_id }, select: { id: true } })) throw new AlreadyStored();
        const [counter] = await tx.$queryRaw<Array<{ last_sequence: bigint }>>`
          INSERT INTO partner_sequences (partner_id, last_sequence) VALUES (${partnerId}::uuid, 1)
          ON CONFLICT (partner_id) DO UPDATE SET last_sequence = partner_sequences.last_sequence + 1
          RETURNING last_sequence`;
        // A concurrent redelivery waited on the counter behind the first copy; it now sees that copy
        // and conflicts on the id, and the throw returns its number.
        const inserted = await tx.$executeRaw`
          INSERT INTO feed_events (id, partner_id, sequence, type, state, resource_id, occurred_at, data)
          VALUES (${event.event_id}::uuid, ${partnerId}::uuid, ${counter.last_sequence}, ${event.type}, ${event.state},
                  ${event.resource_id}, ${new Date(event.occurred_at)}, ${JSON.stringify(event.resource)}::jsonb)
          ON CONFLICT (id) DO NOTHING`;
        if (inserted === 0) throw new AlreadyStored();
        return Number(counter.last_sequence);
      }, TX_OPTIONS);
    } catch (e) {
      if (e instanceof AlreadyStored) return undefined;
      throw e;
    }
  }

  /** The partner's events in sequence order, after `afterSequence` when given. */
  async list(partnerId: string, filter: FeedFilter): Promise<PartnerEvent[]> {
    const rows = await this.prisma.feedEvent.findMany({
      where: {
        partnerId,
        ...(filter.delivered === undefined ? {} : { deliveredAt: filter.delivered ? { not: null } : null }),
        ...(filter.type === undefined ? {} : { type: filter.type }),
        ...(filter.afterSequence === undefined ? {} : { sequence: { gt: filter.afterSequence } }),
      },
      orderBy: { sequence: 'asc' },
      take: filter.limit ?? DEFAULT_EVENTS_PAGE,
    });
    return rows.map(toPartnerEvent);
  }

  /** Marks delivered; marking twice is fine (the first time is kept). False when the partner has no such event. */
  async markDelivered(partnerId: string, id: string): Promise<boolean> {
    return (await this.markManyDelivered(partnerId, [id], new Date())).size === 1;
  }

  /**
   * Marks many of the partner's events delivered in one statement, keeping the first delivery time of
   * those already delivered. Returns the ids the partner has (ids of other partners are untouched).
   */
  async markManyDelivered(partnerId: string, ids: string[], now: Date): Promise<Set<string>> {
    const rows = await this.prisma.$queryRaw<Array<{ id: string }>>`
      UPDATE feed_events SET delivered_at = COALESCE(delivered_at, ${now})
      WHERE partner_id = ${partnerId}::uuid AND id = ANY(${ids}::uuid[])
      RETURNING id::text AS id`;
    return new Set(rows.map((r) => r.id));
  }

  /**
   * Removes at most `limit` events delivered before `deliveredBefore`, oldest deliveries first; returns
   * how many. Every partner's: retention is a maintenance job of the service, not a partner's request.
   */
  async deleteDeliveredBefore(deliveredBefore: Date, limit: number): Promise<number> {
    return this.prisma.$executeRaw`
      DELETE FROM feed_events WHERE id IN (
        SELECT id FROM feed_events WHERE delivered_at < ${deliveredBefore} ORDER BY delivered_at LIMIT ${limit})`;
  }
}
