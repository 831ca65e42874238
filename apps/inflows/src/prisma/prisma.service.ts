import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { pgAdapter } from '@partner/platform';
import { InflowsConfig } from '../config/inflows.config';
import { Prisma, PrismaClient } from '../generated/prisma/client';

/** The inflows service's own tables, in PostgreSQL schema `inflows`. */
export const DB_SCHEMA = 'inflows';

export type Tx = Prisma.TransactionClient;

@Injectable()
export class PrismaService extends PrismaClient implements OnApplicationShutdown {
  constructor(config: InflowsConfig) {
    super({ adapter: pgAdapter(config.DATABASE_URL, DB_SCHEMA) });
  }

  /** After the Kafka consumers have closed (Nest closes them between the destroy and shutdown hooks). */
  async onApplicationShutdown(): Promise<void> {
    await this.$disconnect();
  }
}
