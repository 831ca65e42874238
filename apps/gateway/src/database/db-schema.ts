import { pgSchemaOf } from '@partner/contracts';

/** The gateway's own tables (partners, API key and operator key hashes, rate limit buckets, audit log, outbox), in PostgreSQL schema `gateway`. */
export const DB_SCHEMA = pgSchemaOf('gateway');
