import { Injectable } from '@nestjs/common';
import { schemaPrismaClient } from '@partner/platform';
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
export class PrismaService extends schemaPrismaClient(PrismaClient, DB_SCHEMA) {
  constructor(config: EventsConfig) {
    super(config.DATABASE_URL);
  }
}
