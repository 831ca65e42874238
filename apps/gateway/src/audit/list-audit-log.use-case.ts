import { Inject, Injectable } from '@nestjs/common';
import { unixSeconds } from '../http/unix-seconds';
import { AuditLogRepository, AuditRow } from './audit-log.repository';
import { AuditLogEntryView, AuditLogPage, AuditLogQuery, DEFAULT_AUDIT_PAGE } from './audit.dto';

const toView = (row: AuditRow): AuditLogEntryView => ({
  id: Number(row.id),
  occurred_at: unixSeconds(row.occurred_at),
  operator_key_id: row.operator_key_id,
  operator_key_prefix: row.operator_key_prefix,
  method: row.method,
  route: row.route,
  partner_id: row.partner_id,
  key_id: row.key_id,
  document: row.document,
  status_code: row.status_code,
  request_id: row.request_id,
  usdt_micros: row.usdt_micros === null ? null : Number(row.usdt_micros),
  client_address: row.client_address,
});

/** A page of the audit log, newest first; one row more than asked tells whether an older page exists. */
@Injectable()
export class ListAuditLogUseCase {
  constructor(@Inject(AuditLogRepository) private readonly audit: Pick<AuditLogRepository, 'page'>) {}

  async execute(query: AuditLogQuery): Promise<AuditLogPage> {
    const limit = query.limit ?? DEFAULT_AUDIT_PAGE;
    const rows = await this.audit.page({
      limit: limit + 1,
      before: query.before,
      partnerId: query.partner_id,
      operatorKeyId: query.operator_key_id,
      from: query.from === undefined ? undefined : new Date(query.from * 1000),
      to: query.to === undefined ? undefined : new Date(query.to * 1000),
    });
    const entries = rows.slice(0, limit).map(toView);
    return { entries, next_cursor: rows.length > limit ? entries[entries.length - 1].id : null };
  }
}
