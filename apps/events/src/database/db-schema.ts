import { pgSchemaOf } from '@partner/contracts';

/** The events service's own tables, in PostgreSQL schema `events`. */
export const DB_SCHEMA = pgSchemaOf('events');
