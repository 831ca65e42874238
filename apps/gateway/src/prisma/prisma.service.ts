import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { pgAdapter } from '@partner/platform';
import { GatewayConfig } from '../config/gateway.config';
import { PrismaClient } from '../generated/prisma/client';

/** The gateway's own tables (partners, API key hashes), in PostgreSQL schema `gateway`. */
export const DB_SCHEMA = 'gateway';

@Injectable()
export class PrismaService extends PrismaClient implements OnApplicationShutdown {
  constructor(config: GatewayConfig) {
    super({ adapter: pgAdapter(config.DATABASE_URL, DB_SCHEMA) });
  }

  /** After the Kafka consumers have closed (Nest closes them between the destroy and shutdown hooks). */
  async onApplicationShutdown(): Promise<void> {
    await this.$disconnect();
  }
}
