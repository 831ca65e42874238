import { Injectable } from '@nestjs/common';
import { DEFAULT_EVENTS_PAGE, FeedEvent, PartnerEvent } from '@partner/contracts';
import { Prisma } from '../generated/prisma/client';
import { PrismaService } from '../prisma/prisma.service';

type Row = Prisma.FeedEventGetPayload<object>;

const toPartnerEvent = (r: Row): PartnerEvent => ({
  id: r.id,
  type: r.type,
  state: r.state,
  resource_id: r.resourceId,
  created_at: Math.floor(r.occurredAt.getTime() / 1000),
  delivered: r.deliveredAt !== null,
  data: r.data as Record<string, unknown>,
});

/** The partner feed. Every method takes the partner: a feed is never read across partners. */
@Injectable()
export class FeedEventRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** Stores a domain event once; a redelivery of the same event id is a no-op. Returns whether it was new. */
  async insertIfAbsent(partnerId: string, event: FeedEvent): Promise<boolean> {
    const { count } = await this.prisma.feedEvent.createMany({
      data: [
        {
          id: event.event_id,
          partnerId,
          type: event.type,
          state: event.state,
          resourceId: event.resource_id,
          occurredAt: new Date(event.occurred_at),
          data: event.resource as unknown as Prisma.InputJsonValue,
        },
      ],
      skipDuplicates: true,
    });
    return count === 1;
  }

  async list(partnerId: string, filter: { delivered?: boolean; limit?: number }): Promise<PartnerEvent[]> {
    const rows = await this.prisma.feedEvent.findMany({
      where: {
        partnerId,
        ...(filter.delivered === undefined ? {} : { deliveredAt: filter.delivered ? { not: null } : null }),
      },
      orderBy: { seq: 'asc' },
      take: filter.limit ?? DEFAULT_EVENTS_PAGE,
    });
    return rows.map(toPartnerEvent);
  }

  /** Marks delivered; marking twice is fine (the first time is kept). False when the partner has no such event. */
  async markDelivered(partnerId: string, id: string): Promise<boolean> {
    const { count } = await this.prisma.feedEvent.updateMany({ where: { id, partnerId, deliveredAt: null }, data: { deliveredAt: new Date() } });
    if (count === 1) return true;
    return (await this.prisma.feedEvent.count({ where: { id, partnerId } })) === 1;
  }
}
