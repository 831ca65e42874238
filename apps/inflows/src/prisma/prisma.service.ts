import { Injectable } from '@nestjs/common';
import { pgSchemaOf } from '@partner/contracts';
import { schemaPrismaClient } from '@partner/platform';
import { InflowsConfig } from '../config/inflows.config';
import { PrismaClient } from '../generated/prisma/client';

/** The inflows service's own tables, in PostgreSQL schema `inflows`. */
export const DB_SCHEMA = pgSchemaOf('inflows');

@Injectable()
export class PrismaService extends schemaPrismaClient(PrismaClient, DB_SCHEMA) {
  constructor(config: InflowsConfig) {
    super(config);
  }
}
