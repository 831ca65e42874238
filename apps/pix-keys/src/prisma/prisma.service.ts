import { Injectable } from '@nestjs/common';
import { pgSchemaOf } from '@partner/contracts';
import { schemaPrismaClient } from '@partner/platform';
import { PixKeysConfig } from '../config/pix-keys.config';
import { PrismaClient } from '../generated/prisma/client';

/** The pix-keys service's own tables, in PostgreSQL schema `pix_keys`. */
export const DB_SCHEMA = pgSchemaOf('pix-keys');

@Injectable()
export class PrismaService extends schemaPrismaClient(PrismaClient, DB_SCHEMA) {
  constructor(config: PixKeysConfig) {
    super(config);
  }
}
