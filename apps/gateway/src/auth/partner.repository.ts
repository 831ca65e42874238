import { Injectable } from '@nestjs/common';
import { authenticatedPartnerId, PartnerId } from '@partner/contracts';
import { isUUID } from 'class-validator';
import { randomUUID } from 'node:crypto';
import { Database, statement, Statement, Transaction } from '@partner/db';

/** The partner's own rate limit; absent = RATE_LIMIT_PER_SECOND / RATE_LIMIT_BURST. */
export interface PartnerLimits {
  rateLimitPerSecond?: number;
  rateLimitBurst?: number;
}

export interface Partner extends PartnerLimits {
  id: PartnerId;
  name: string;
  /** An operator disabled the partner: its keys are refused (403 partner_disabled) until re-enabled. */
  disabled: boolean;
}

/** A partner's columns as the pg driver reads them (partners, or a join with them). */
export interface PartnerRow {
  id: string;
  name: string;
  rate_limit_per_second: number | null;
  rate_limit_burst: number | null;
  disabled_at: Date | null;
}

/** A partner as operators see it: its row, and how many of its API keys are active. */
export interface PartnerRecord {
  id: string;
  name: string;
  created_at: Date;
  disabled_at: Date | null;
  rate_limit_per_second: number | null;
  rate_limit_burst: number | null;
  active_api_keys: number;
}

/** Where a page of the partner listing continues: below the last partner of the previous page. */
export interface PartnerPosition {
  createdAt: Date;
  id: string;
}

/**
 * A partners row as the domain sees it: no limit of its own is `undefined` (the defaults apply). Its id
 * becomes a PartnerId here: a row of `partners` is the partner itself (found by its API key, or created).
 */
export const partnerOf = (row: PartnerRow): Partner => ({
  id: authenticatedPartnerId(row.id),
  name: row.name,
  rateLimitPerSecond: row.rate_limit_per_second ?? undefined,
  rateLimitBurst: row.rate_limit_burst ?? undefined,
  disabled: row.disabled_at !== null,
});

const RECORD_COLUMNS = `p.id, p.name, p.created_at, p.disabled_at, p.rate_limit_per_second, p.rate_limit_burst,
  (SELECT count(*)::int FROM api_keys k WHERE k.partner_id = p.id AND k.revoked_at IS NULL) AS active_api_keys`;

const EXISTS = statement('partner_exists', 'SELECT 1 FROM partners WHERE id = $1');
const FIND = statement('partner_find', `SELECT ${RECORD_COLUMNS} FROM partners p WHERE p.id = $1`);

/** Newest first, below a position ($1, $2, both null for the first page): an index range on (created_at, id). */
const PAGE = {
  name: 'partner_page',
  text: `SELECT ${RECORD_COLUMNS} FROM partners p
         WHERE $1::timestamptz IS NULL OR (p.created_at, p.id) < ($1, $2::uuid)
         ORDER BY p.created_at DESC, p.id DESC LIMIT $3`,
};

/** Moves the status only when it changes ($2: disable or enable), so a repeated call writes nothing and emits nothing. */
const SET_STATUS: Statement = statement(
  'partner_set_status',
  `UPDATE partners SET disabled_at = CASE WHEN $2 THEN now() END
   WHERE id = $1 AND (disabled_at IS NULL) = $2 RETURNING now() AS changed_at`,
);

/**
 * Partners, on the pg driver (no ORM query at run time: its query compiler alone costs ~45 MB of memory
 * per process, measured). Their API keys are ApiKeyRepository's.
 */
@Injectable()
export class PartnerRepository {
  constructor(private readonly db: Database) {}

  /** Creates a partner (without a key: CreateApiKeyUseCase issues those). */
  async create(name: string, limits: PartnerLimits = {}): Promise<Partner & { createdAt: Date }> {
    const { rows } = await this.db.query<PartnerRow & { created_at: Date }>(
      `INSERT INTO partners (id, name, rate_limit_per_second, rate_limit_burst) VALUES ($1, $2, $3, $4)
       RETURNING id, name, rate_limit_per_second, rate_limit_burst, disabled_at, created_at`,
      [randomUUID(), name, limits.rateLimitPerSecond ?? null, limits.rateLimitBurst ?? null],
    );
    return { ...partnerOf(rows[0]), createdAt: rows[0].created_at };
  }

  /** Whether the partner exists; false for anything that is not a UUID (never a query error). */
  async exists(id: string): Promise<boolean> {
    if (!isUUID(id)) return false;
    const { rows } = await this.db.query(EXISTS, [id]);
    return rows.length > 0;
  }

  /** A page of partners, newest first. The operator may read every partner: no tenant to scope by. */
  async page(limit: number, after?: PartnerPosition): Promise<PartnerRecord[]> {
    const { rows } = await this.db.query<PartnerRecord>(PAGE, [after?.createdAt ?? null, after?.id ?? null, limit]);
    return rows;
  }

  async find(partnerId: PartnerId): Promise<PartnerRecord | null> {
    const { rows } = await this.db.query<PartnerRecord>(FIND, [partnerId]);
    return rows[0] ?? null;
  }

  /**
   * Disables (`disabled` true) or re-enables the partner in the caller's transaction. The time it changed,
   * or undefined when it already was so (nothing written).
   */
  async setDisabled(tx: Transaction, partnerId: PartnerId, disabled: boolean): Promise<{ changedAt: Date } | undefined> {
    const {
      rows: [row],
    } = await tx.query<{ changed_at: Date }>(SET_STATUS, [partnerId, disabled]);
    return row ? { changedAt: row.changed_at } : undefined;
  }
}
