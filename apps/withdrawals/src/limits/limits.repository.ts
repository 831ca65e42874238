import { Injectable } from '@nestjs/common';
import { PartnerId } from '@partner/contracts';
import { Database, statement, Transaction } from '@partner/db';

/** A set of limits in micros; null: none. */
export interface Limits {
  perWithdrawal: bigint | null;
  daily: bigint | null;
  monthly: bigint | null;
  /** The partner-wide total of 24 hours (a partner's limits only). */
  partnerDaily: bigint | null;
  /** Above it a withdrawal waits in pending_approval (a partner's limits only). */
  approvalThreshold: bigint | null;
}

/** Limits as stored: the partner's or one user's, with who set them and when. */
export interface StoredLimits extends Limits {
  updatedAt: Date | null;
  updatedBy: string | null;
}

/** What counts against the limits now (the amounts of the withdrawals asked for in each window, failed ones aside). */
export interface LimitUsage {
  daily: bigint;
  monthly: bigint;
  partnerDaily: bigint;
}

export const NO_LIMITS: Limits = { perWithdrawal: null, daily: null, monthly: null, partnerDaily: null, approvalThreshold: null };
export const hasLimits = (l: Limits): boolean => Object.values(l).some((v) => v !== null);

/** The windows: rolling 24 hours and 30 days. */
export const DAY_MS = 24 * 3_600_000;
export const MONTH_MS = 30 * DAY_MS;

interface LimitsRow {
  per_withdrawal_micros: string | null;
  daily_micros: string | null;
  monthly_micros: string | null;
  partner_daily_micros?: string | null;
  approval_threshold_micros?: string | null;
  updated_at: Date | null;
  updated_by: string | null;
}

const big = (v: string | null | undefined): bigint | null => (v === null || v === undefined ? null : BigInt(v));
const toStored = (r: LimitsRow | undefined): StoredLimits => ({
  perWithdrawal: big(r?.per_withdrawal_micros),
  daily: big(r?.daily_micros),
  monthly: big(r?.monthly_micros),
  partnerDaily: big(r?.partner_daily_micros),
  approvalThreshold: big(r?.approval_threshold_micros),
  updatedAt: r?.updated_at ?? null,
  updatedBy: r?.updated_by ?? null,
});
const text = (v: bigint | null): string | null => (v === null ? null : v.toString());

/** The limits in force for a user: each of its own where set, else the partner's. */
const EFFECTIVE = statement(
  'limits_effective',
  `SELECT coalesce(u.per_withdrawal_micros, p.per_withdrawal_micros)::text AS per_withdrawal_micros,
          coalesce(u.daily_micros, p.daily_micros)::text AS daily_micros,
          coalesce(u.monthly_micros, p.monthly_micros)::text AS monthly_micros,
          p.partner_daily_micros::text AS partner_daily_micros, p.approval_threshold_micros::text AS approval_threshold_micros,
          NULL::timestamptz AS updated_at, NULL::text AS updated_by
   FROM (SELECT 1) AS one
   LEFT JOIN partner_limits p ON p.partner_id = $1
   LEFT JOIN user_limits u ON u.partner_id = $1 AND u.document = $2`,
);
const PARTNER = statement(
  'limits_partner',
  `SELECT per_withdrawal_micros::text AS per_withdrawal_micros, daily_micros::text AS daily_micros, monthly_micros::text AS monthly_micros,
          partner_daily_micros::text AS partner_daily_micros, approval_threshold_micros::text AS approval_threshold_micros, updated_at, updated_by
   FROM partner_limits WHERE partner_id = $1`,
);
const USER = statement(
  'limits_user',
  `SELECT per_withdrawal_micros::text AS per_withdrawal_micros, daily_micros::text AS daily_micros, monthly_micros::text AS monthly_micros,
          updated_at, updated_by FROM user_limits WHERE partner_id = $1 AND document = $2`,
);
const PUT_PARTNER = statement(
  'limits_put_partner',
  `INSERT INTO partner_limits (partner_id, per_withdrawal_micros, daily_micros, monthly_micros, partner_daily_micros, approval_threshold_micros,
                               updated_at, updated_by)
   VALUES ($1, $2, $3, $4, $5, $8, $6, $7)
   ON CONFLICT (partner_id) DO UPDATE SET per_withdrawal_micros = EXCLUDED.per_withdrawal_micros, daily_micros = EXCLUDED.daily_micros,
     monthly_micros = EXCLUDED.monthly_micros, partner_daily_micros = EXCLUDED.partner_daily_micros,
     approval_threshold_micros = EXCLUDED.approval_threshold_micros, updated_at = EXCLUDED.updated_at, updated_by = EXCLUDED.updated_by`,
);
/** A user's own limits, for a user the partner has (nothing written otherwise: the caller answers user_not_found). */
const PUT_USER = statement(
  'limits_put_user',
  `INSERT INTO user_limits (partner_id, document, per_withdrawal_micros, daily_micros, monthly_micros, updated_at, updated_by)
   SELECT $1, $2, $3, $4, $5, $6, $7 WHERE EXISTS (SELECT 1 FROM accounts WHERE partner_id = $1 AND document = $2)
   ON CONFLICT (partner_id, document) DO UPDATE SET per_withdrawal_micros = EXCLUDED.per_withdrawal_micros, daily_micros = EXCLUDED.daily_micros,
     monthly_micros = EXCLUDED.monthly_micros, updated_at = EXCLUDED.updated_at, updated_by = EXCLUDED.updated_by
   RETURNING 1`,
);
/**
 * The amounts of the partner's withdrawals asked for in the windows ending at $3, failed ones and $4 (the one
 * being created) aside: the user's ($2) in 24 hours and 30 days, all users' in 24 hours. The indexes of
 * migration withdrawal_list_indexes ((partner_id, document, created_at, id), (partner_id, created_at, id)).
 */
const USAGE = statement(
  'limits_usage',
  `SELECT
     (SELECT coalesce(sum(amount_micros) FILTER (WHERE created_at > $3::timestamptz - interval '24 hours'), 0)::text
      FROM withdrawals WHERE partner_id = $1 AND document = $2 AND created_at > $3::timestamptz - interval '30 days'
        AND state <> 'failed' AND id <> $4) AS daily,
     (SELECT coalesce(sum(amount_micros), 0)::text
      FROM withdrawals WHERE partner_id = $1 AND document = $2 AND created_at > $3::timestamptz - interval '30 days'
        AND state <> 'failed' AND id <> $4) AS monthly,
     CASE WHEN $5::boolean THEN
       (SELECT coalesce(sum(amount_micros), 0)::text FROM withdrawals
        WHERE partner_id = $1 AND created_at > $3::timestamptz - interval '24 hours' AND state <> 'failed' AND id <> $4)
     ELSE '0' END AS partner_daily`,
);
const LOCK_PARTNER = statement('limits_lock_partner', 'SELECT 1 FROM partner_limits WHERE partner_id = $1 FOR UPDATE');

/**
 * Withdrawal limits (withdrawals.partner_limits, withdrawals.user_limits) and their use. Every method is scoped
 * by partner.
 */
@Injectable()
export class LimitsRepository {
  constructor(private readonly db: Database) {}

  /** The limits in force for the user: each of its own where set, else the partner's (all null: none). */
  async effective(partnerId: PartnerId, document: string): Promise<Limits> {
    const { rows } = await this.db.query<LimitsRow>(EFFECTIVE, [partnerId, document]);
    const { updatedAt: _at, updatedBy: _by, ...limits } = toStored(rows[0]);
    return limits;
  }

  async partner(partnerId: PartnerId): Promise<StoredLimits> {
    const { rows } = await this.db.query<LimitsRow>(PARTNER, [partnerId]);
    return toStored(rows[0]);
  }

  async user(partnerId: PartnerId, document: string): Promise<StoredLimits> {
    const { rows } = await this.db.query<LimitsRow>(USER, [partnerId, document]);
    return toStored(rows[0]);
  }

  async setPartner(partnerId: PartnerId, l: Limits, by: string, at: Date): Promise<void> {
    const values = [
      partnerId,
      text(l.perWithdrawal),
      text(l.daily),
      text(l.monthly),
      text(l.partnerDaily),
      at,
      by,
      text(l.approvalThreshold),
    ];
    await this.db.query(PUT_PARTNER, values);
  }

  /** Sets a user's own limits; false when the partner has no such user (nothing written). */
  async setUser(
    partnerId: PartnerId,
    document: string,
    l: Omit<Limits, 'partnerDaily' | 'approvalThreshold'>,
    by: string,
    at: Date,
  ): Promise<boolean> {
    const { rows } = await this.db.query(PUT_USER, [partnerId, document, text(l.perWithdrawal), text(l.daily), text(l.monthly), at, by]);
    return rows.length > 0;
  }

  /**
   * The use of the windows ending `now`. In `tx` after the caller's locks it is a fresh snapshot that sees every
   * withdrawal committed before them. `except`: the withdrawal being created (0: none); `partnerWide`: whether
   * the partner-wide sum is wanted (it reads all the partner's withdrawals of the day).
   */
  async usage(
    partnerId: PartnerId,
    document: string,
    now: Date,
    { tx, except = 0, partnerWide = true }: { tx?: Transaction; except?: number; partnerWide?: boolean } = {},
  ): Promise<LimitUsage> {
    const { rows } = await (tx ?? this.db).query<{ daily: string; monthly: string; partner_daily: string }>(USAGE, [
      partnerId,
      document,
      now,
      except,
      partnerWide,
    ]);
    return { daily: BigInt(rows[0].daily), monthly: BigInt(rows[0].monthly), partnerDaily: BigInt(rows[0].partner_daily) };
  }

  /** Locks the partner's limits row to the end of `tx`: withdrawals of the partner checked against its daily total go one at a time. */
  async lockPartner(tx: Transaction, partnerId: PartnerId): Promise<void> {
    await tx.query(LOCK_PARTNER, [partnerId]);
  }
}
