import { Injectable } from '@nestjs/common';
import { pgSchemaOf } from '@partner/contracts';
import { schemaPrismaClient } from '@partner/platform';
import { CustomersConfig } from '../config/customers.config';
import { PrismaClient } from '../generated/prisma/client';

/** The customers service's own tables, in PostgreSQL schema `customers`. */
export const DB_SCHEMA = pgSchemaOf('customers');

@Injectable()
export class PrismaService extends schemaPrismaClient(PrismaClient, DB_SCHEMA) {
  constructor(config: CustomersConfig) {
    super(config);
  }
}
