import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { pgAdapter } from '@partner/platform';
import { PixKeysConfig } from '../config/pix-keys.config';
import { Prisma, PrismaClient } from '../generated/prisma/client';

/** The pix-keys service's own tables, in PostgreSQL schema `pix_keys`. */
export const DB_SCHEMA = 'pix_keys';

export type Tx = Prisma.TransactionClient;

@Injectable()
export class PrismaService extends PrismaClient implements OnApplicationShutdown {
  constructor(config: PixKeysConfig) {
    super({ adapter: pgAdapter(config.DATABASE_URL, DB_SCHEMA) });
  }

  /** After the Kafka consumers have closed (Nest closes them between the destroy and shutdown hooks). */
  async onApplicationShutdown(): Promise<void> {
    await this.$disconnect();
  }
}
