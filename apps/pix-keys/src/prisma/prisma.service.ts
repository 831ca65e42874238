import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { pgAdapter } from '@partner/platform';
import { PixKeysConfig } from '../config/pix-keys.config';
import { PrismaClient } from '../generated/prisma/client';

/** The pix-keys service's own tables, in PostgreSQL schema `pix_keys`. */
export const DB_SCHEMA = 'pix_keys';

@Injectable()
export class PrismaService extends PrismaClient implements OnModuleDestroy {
  constructor(config: PixKeysConfig) {
    super({ adapter: pgAdapter(config.DATABASE_URL, DB_SCHEMA) });
  }

  async onModuleDestroy(): Promise<void> {
    await this.$disconnect();
  }
}
