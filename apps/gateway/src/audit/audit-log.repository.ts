import { Injectable } from '@nestjs/common';
import { appendAuditEntry, AuditEntry } from '@partner/operator-access';
import { Database } from '@partner/db';

/** One /admin/v1 call as recorded (the CLI's operator-key commands write the same, libs/operator-access). */
export type { AuditEntry };

export interface AuditRow {
  /** bigint: pg returns it as text. */
  id: string;
  occurred_at: Date;
  operator_key_id: string | null;
  operator_key_prefix: string | null;
  method: string;
  route: string;
  partner_id: string | null;
  key_id: string | null;
  document: string | null;
  status_code: number;
  request_id: string;
  /** bigint as text. */
  usdt_micros: string | null;
  client_address: string | null;
}

/** What a page of the audit log is limited to; every filter is optional. */
export interface AuditFilter {
  before?: number;
  partnerId?: string;
  operatorKeyId?: string;
  from?: Date;
  to?: Date;
}

/**
 * Newest first, before an id, optionally of one partner, of one operator key, within a time range: an
 * index range on the primary key, (partner_id, id) or (operator_key_id, id); the time bounds filter it. ORDER BY names the column: a bare `id` would be the output's `id::text`, and '999'
 * sorts after '1150' (the fuzz suite's audit check found it once the log passed 999 rows).
 */
const PAGE = {
  name: 'audit_page',
  text: `SELECT id::text AS id, occurred_at, operator_key_id, operator_key_prefix, method, route, partner_id, key_id, document, status_code, request_id,
                usdt_micros::text AS usdt_micros, client_address
         FROM audit_log
         WHERE ($1::bigint IS NULL OR id < $1) AND ($2::text IS NULL OR partner_id = $2)
           AND ($4::uuid IS NULL OR operator_key_id = $4)
           AND ($5::timestamptz IS NULL OR occurred_at >= $5) AND ($6::timestamptz IS NULL OR occurred_at < $6)
         ORDER BY audit_log.id DESC LIMIT $3`,
};

/** The operator API's audit log (gateway.audit_log): append and read only; the table's triggers refuse the rest. */
@Injectable()
export class AuditLogRepository {
  constructor(private readonly db: Database) {}

  /** The document, if any, is masked on the way (appendAuditEntry): the audit log keeps none in clear. */
  append(e: AuditEntry): Promise<void> {
    return appendAuditEntry(this.db, e);
  }

  async page({ limit, before, partnerId, operatorKeyId, from, to }: AuditFilter & { limit: number }): Promise<AuditRow[]> {
    const values = [before ?? null, partnerId ?? null, limit, operatorKeyId ?? null, from ?? null, to ?? null];
    const { rows } = await this.db.query<AuditRow>(PAGE, values);
    return rows;
  }
}
