import type { Pool } from 'pg';
import { maskIdentifiers } from '@partner/tracing';

/** Anything that runs a statement: a pool, a client in a transaction. */
export type Queryable = Pick<Pool, 'query'>;

/**
 * One operator action as gateway.audit_log records it: who, what, the target, the outcome and the
 * request's id. Written by the gateway for every /admin/v1 call and by the CLI for the operator-key
 * commands it runs against the database (method `CLI`), through appendAuditEntry both.
 */
export interface AuditEntry {
  operatorKeyId: string | null;
  operatorKeyPrefix: string | null;
  method: string;
  route: string;
  partnerId: string | null;
  keyId: string | null;
  /** Masked before it is written (maskIdentifiers): the audit log keeps no document in clear. */
  document: string | null;
  statusCode: number;
  requestId: string;
}

/** Named with its schema: any pool on the database can append, whatever its search_path. */
const APPEND = {
  name: 'audit_append',
  text: `INSERT INTO gateway.audit_log (operator_key_id, operator_key_prefix, method, route, partner_id, key_id, document, status_code, request_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
};

export async function appendAuditEntry(db: Queryable, e: AuditEntry): Promise<void> {
  const document = e.document === null ? null : maskIdentifiers(e.document);
  await db.query({ ...APPEND, values: [e.operatorKeyId, e.operatorKeyPrefix, e.method, e.route, e.partnerId, e.keyId, document, e.statusCode, e.requestId] });
}
