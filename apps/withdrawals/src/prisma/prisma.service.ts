import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { pgAdapter } from '@partner/platform';
import { WithdrawalsConfig } from '../config/withdrawals.config';
import { Prisma, PrismaClient } from '../generated/prisma/client';

/** The withdrawals service's own tables, in PostgreSQL schema `withdrawals`. */
export const DB_SCHEMA = 'withdrawals';

export type Tx = Prisma.TransactionClient;

@Injectable()
export class PrismaService extends PrismaClient implements OnApplicationShutdown {
  constructor(config: WithdrawalsConfig) {
    super({ adapter: pgAdapter(config.DATABASE_URL, DB_SCHEMA) });
  }

  /** After the Kafka consumers have closed (Nest closes them between the destroy and shutdown hooks). */
  async onApplicationShutdown(): Promise<void> {
    await this.$disconnect();
  }
}
