import { maskCallerText } from '@partner/tracing';
import { isUUID } from 'class-validator';
import { type Queryable, statement } from '@partner/db';

/** Anything that runs a statement: a database, a transaction. */
export type { Queryable };

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
  /** Masked before it is written (maskParameter): the audit log keeps no document in clear. */
  document: string | null;
  statusCode: number;
  requestId: string;
  /** The amount the call asked to move (a credit's usdt_micros); null or absent when it named none. */
  usdtMicros?: number | null;
  /** The client's address as the gateway read it; absent for the CLI. */
  clientAddress?: string | null;
}

/** Named with its schema: any pool on the database can append, whatever its search_path. */
const APPEND = statement(
  'audit_append',
  `INSERT INTO gateway.audit_log (operator_key_id, operator_key_prefix, method, route, partner_id, key_id, document, status_code, request_id,
                                  usdt_micros, client_address)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
);

export async function appendAuditEntry(db: Queryable, e: AuditEntry): Promise<void> {
  const values = [
    e.operatorKeyId,
    e.operatorKeyPrefix,
    e.method,
    e.route,
    maskParameter(e.partnerId),
    maskParameter(e.keyId),
    maskParameter(e.document),
    e.statusCode,
    e.requestId,
    e.usdtMicros ?? null,
    e.clientAddress ?? null,
  ];
  await db.query(APPEND, values);
}

/**
 * A path parameter as the audit log keeps it. Any of them may hold a document, since a caller can send
 * anything where an id goes (`A52998224725` is not a CPF to maskIdentifiers, a letter touches it), so all
 * are masked as a logged URL is (maskCallerText: every run of 8 or more digits too). A UUID is kept as it is:
 * it names a partner or a key, and its digit runs are not a person's.
 */
export function maskParameter(value: string | null): string | null {
  return value === null || isUUID(value) ? value : maskCallerText(value);
}
