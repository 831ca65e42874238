import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { pgAdapter } from '@partner/platform';
import { InflowsConfig } from '../config/inflows.config';
import { PrismaClient } from '../generated/prisma/client';

/** The inflows service's own tables, in PostgreSQL schema `inflows`. */
export const DB_SCHEMA = 'inflows';

@Injectable()
export class PrismaService extends PrismaClient implements OnModuleDestroy {
  constructor(config: InflowsConfig) {
    super({ adapter: pgAdapter(config.DATABASE_URL, DB_SCHEMA) });
  }

  async onModuleDestroy(): Promise<void> {
    await this.$disconnect();
  }
}
