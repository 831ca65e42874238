import { pgSchemaOf } from '@partner/contracts';

/** The inflows service's own tables, in PostgreSQL schema `inflows`. */
export const DB_SCHEMA = pgSchemaOf('inflows');
