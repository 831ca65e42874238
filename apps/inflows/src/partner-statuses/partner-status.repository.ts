import { Injectable } from '@nestjs/common';
import { PartnerId, PartnerStatus } from '@partner/contracts';
import { Database, statement, Transaction } from '@partner/db';

/** Records the partner's status unless a newer one is stored (by changed_at): redeliveries and late events are harmless. */
const APPLY = statement(
  'inflows_partner_status_apply',
  `INSERT INTO partner_statuses (partner_id, status, changed_at) VALUES ($1, $2, $3)
   ON CONFLICT (partner_id) DO UPDATE SET status = EXCLUDED.status, changed_at = EXCLUDED.changed_at
     WHERE partner_statuses.changed_at < EXCLUDED.changed_at`,
);

const IS_DISABLED = statement(
  'inflows_partner_status_disabled',
  `SELECT EXISTS (SELECT 1 FROM partner_statuses WHERE partner_id = $1 AND status = 'disabled') AS disabled`,
);

/** Partners' statuses as the gateway's events told them (no row: active). */
@Injectable()
export class PartnerStatusRepository {
  constructor(private readonly db: Database) {}

  /** Whether the change was applied (false: a newer one is known). */
  async apply(partnerId: PartnerId, status: PartnerStatus, changedAt: Date): Promise<boolean> {
    const { rowCount } = await this.db.query(APPLY, [partnerId, status, changedAt]);
    return rowCount === 1;
  }

  async isDisabled(tx: Transaction, partnerId: PartnerId): Promise<boolean> {
    const { rows } = await tx.query<{ disabled: boolean }>(IS_DISABLED, [partnerId]);
    return rows[0].disabled;
  }
}
