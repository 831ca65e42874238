import { pgSchemaOf } from '@partner/contracts';

/** The pix-keys service's own tables, in PostgreSQL schema `pix_keys`. */
export const DB_SCHEMA = pgSchemaOf('pix-keys');
