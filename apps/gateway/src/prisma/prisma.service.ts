import { Injectable } from '@nestjs/common';
import { pgSchemaOf } from '@partner/contracts';
import { schemaPrismaClient } from '@partner/platform';
import { GatewayConfig } from '../config/gateway.config';
import { PrismaClient } from '../generated/prisma/client';

/** The gateway's own tables (partners, API key and operator key hashes, rate limit buckets, audit log, outbox), in PostgreSQL schema `gateway`. */
export const DB_SCHEMA = pgSchemaOf('gateway');

@Injectable()
export class PrismaService extends schemaPrismaClient(PrismaClient, DB_SCHEMA) {
  constructor(config: GatewayConfig) {
    super(config);
  }
}
