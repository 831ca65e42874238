import { Injectable } from '@nestjs/common';
import { pgSchemaOf } from '@partner/contracts';
import { schemaPrismaClient } from '@partner/platform';
import { WithdrawalsConfig } from '../config/withdrawals.config';
import { PrismaClient } from '../generated/prisma/client';

/** The withdrawals service's own tables, in PostgreSQL schema `withdrawals`. */
export const DB_SCHEMA = pgSchemaOf('withdrawals');

@Injectable()
export class PrismaService extends schemaPrismaClient(PrismaClient, DB_SCHEMA) {
  constructor(config: WithdrawalsConfig) {
    super(config);
  }
}
