import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { pgAdapter } from '@partner/platform';
import { EventsConfig } from '../config/events.config';
import { Prisma, PrismaClient } from '../generated/prisma/client';

/** The events service's own tables, in PostgreSQL schema `events`. */
export const DB_SCHEMA = 'events';

export type Tx = Prisma.TransactionClient;

/**
 * Projections of one partner queue on its sequence counter; under a burst they should wait for a
 * pooled connection longer than Prisma's default 2 s rather than fail and be redelivered.
 */
export const TX_OPTIONS = { maxWait: 10_000, timeout: 10_000 } as const;

@Injectable()
export class PrismaService extends PrismaClient implements OnApplicationShutdown {
  constructor(config: EventsConfig) {
    super({ adapter: pgAdapter(config.DATABASE_URL, DB_SCHEMA) });
  }

  /** After the Kafka consumers have closed (Nest closes them between the destroy and shutdown hooks). */
  async onApplicationShutdown(): Promise<void> {
    await this.$disconnect();
  }
}
