import { pgSchemaOf } from '@partner/contracts';

/** The withdrawals service's own tables, in PostgreSQL schema `withdrawals`. */
export const DB_SCHEMA = pgSchemaOf('withdrawals');
