import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { pgAdapter } from '@partner/platform';
import { GatewayConfig } from '../config/gateway.config';
import { PrismaClient } from '../generated/prisma/client';

/** The gateway's own tables (partners, API key hashes), in PostgreSQL schema `gateway`. */
export const DB_SCHEMA = 'gateway';

@Injectable()
export class PrismaService extends PrismaClient implements OnModuleDestroy {
  constructor(config: GatewayConfig) {
    super({ adapter: pgAdapter(config.DATABASE_URL, DB_SCHEMA) });
  }

  async onModuleDestroy(): Promise<void> {
    await this.$disconnect();
  }
}
