import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { pgAdapter } from '@partner/platform';
import { CustomersConfig } from '../config/customers.config';
import { Prisma, PrismaClient } from '../generated/prisma/client';

/** The customers service's own tables, in PostgreSQL schema `customers`. */
export const DB_SCHEMA = 'customers';

export type Tx = Prisma.TransactionClient;

@Injectable()
export class PrismaService extends PrismaClient implements OnApplicationShutdown {
  constructor(config: CustomersConfig) {
    super({ adapter: pgAdapter(config.DATABASE_URL, DB_SCHEMA) });
  }

  /** After the Kafka consumers have closed (Nest closes them between the destroy and shutdown hooks). */
  async onApplicationShutdown(): Promise<void> {
    await this.$disconnect();
  }
}
