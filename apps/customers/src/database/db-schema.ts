import { pgSchemaOf } from '@partner/contracts';

/** The customers service's own tables, in PostgreSQL schema `customers`. */
export const DB_SCHEMA = pgSchemaOf('customers');
