import { Injectable } from '@nestjs/common';
import { pgSchemaOf } from '@partner/contracts';
import { schemaPrismaClient } from '@partner/platform';
import { EventsConfig } from '../config/events.config';
import { Prisma, PrismaClient } from '../generated/prisma/client';

/** The events service's own tables, in PostgreSQL schema `events`. */
export const DB_SCHEMA = pgSchemaOf('events');

export type Tx = Prisma.TransactionClient;

@Injectable()
export class PrismaService extends schemaPrismaClient(PrismaClient, DB_SCHEMA) {
  constructor(config: EventsConfig) {
    super(config);
  }
}
