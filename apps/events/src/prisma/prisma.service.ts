import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { pgAdapter } from '@partner/platform';
import { EventsConfig } from '../config/events.config';
import { PrismaClient } from '../generated/prisma/client';

/** The events service's own tables, in PostgreSQL schema `events`. */
export const DB_SCHEMA = 'events';

@Injectable()
export class PrismaService extends PrismaClient implements OnModuleDestroy {
  constructor(config: EventsConfig) {
    super({ adapter: pgAdapter(config.DATABASE_URL, DB_SCHEMA) });
  }

  async onModuleDestroy(): Promise<void> {
    await this.$disconnect();
  }
}
