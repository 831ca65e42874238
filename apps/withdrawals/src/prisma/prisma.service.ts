import { Injectable } from '@nestjs/common';
import { schemaPrismaClient } from '@partner/platform';
import { WithdrawalsConfig } from '../config/withdrawals.config';
import { Prisma, PrismaClient } from '../generated/prisma/client';

/** The withdrawals service's own tables, in PostgreSQL schema `withdrawals`. */
export const DB_SCHEMA = 'withdrawals';

export type Tx = Prisma.TransactionClient;

/**
 * Interactive transactions wait for a pooled connection (Prisma's default gives up after 2 s); under a
 * burst, a withdrawal should queue for longer than that rather than fail, and still end well inside
 * the gateway's request timeout.
 */
export const TX_OPTIONS = { maxWait: 8_000, timeout: 10_000 } as const;

@Injectable()
export class PrismaService extends schemaPrismaClient(PrismaClient, DB_SCHEMA) {
  constructor(config: WithdrawalsConfig) {
    super(config.DATABASE_URL);
  }
}
