import { Injectable } from '@nestjs/common';
import { Beneficiary, PartnerId } from '@partner/contracts';
import { Database, statement } from '@partner/db';

/** What a partner's withdrawals must carry (no row: the defaults, nothing asked). */
export interface WithdrawalPolicy {
  beneficiaryRequired: boolean;
  addressBookOnly: boolean;
  addressCooldownSeconds: number;
  updatedAt: Date | null;
  updatedBy: string | null;
}

/** A user's saved destination. */
export interface SavedAddress {
  address: string;
  label: string | null;
  beneficiary: Beneficiary;
  /** The verified proof of control (null: none given). */
  proof: string | null;
  createdAt: Date;
}

export const DEFAULT_POLICY: WithdrawalPolicy = {
  beneficiaryRequired: false,
  addressBookOnly: false,
  addressCooldownSeconds: 0,
  updatedAt: null,
  updatedBy: null,
};

interface PolicyRow {
  beneficiary_required: boolean | null;
  address_book_only: boolean | null;
  address_cooldown_seconds: number | null;
  updated_at: Date | null;
  updated_by: string | null;
}
interface SavedRow {
  address: string;
  label: string | null;
  beneficiary: Beneficiary;
  proof: string | null;
  created_at: Date;
}

const toPolicy = (r: PolicyRow | undefined): WithdrawalPolicy =>
  r?.beneficiary_required === null || r === undefined
    ? DEFAULT_POLICY
    : {
        beneficiaryRequired: r.beneficiary_required,
        addressBookOnly: r.address_book_only ?? false,
        addressCooldownSeconds: r.address_cooldown_seconds ?? 0,
        updatedAt: r.updated_at,
        updatedBy: r.updated_by,
      };
const toSaved = (r: SavedRow): SavedAddress => ({
  address: r.address,
  label: r.label,
  beneficiary: r.beneficiary,
  proof: r.proof,
  createdAt: r.created_at,
});

const POLICY = statement('destinations_policy', 'SELECT * FROM withdrawal_policies WHERE partner_id = $1');
/** In one round trip, what a withdrawal's destination is checked against: the partner's policy and the user's saved entry for it. */
const FOR_WITHDRAWAL = statement(
  'destinations_for_withdrawal',
  `SELECT p.beneficiary_required, p.address_book_only, p.address_cooldown_seconds, p.updated_at, p.updated_by,
          s.address, s.label, s.beneficiary, s.proof, s.created_at
   FROM (SELECT 1) AS one
   LEFT JOIN withdrawal_policies p ON p.partner_id = $1
   LEFT JOIN saved_addresses s ON s.partner_id = $1 AND s.document = $2 AND s.address = $3`,
);
const PUT_POLICY = statement(
  'destinations_put_policy',
  `INSERT INTO withdrawal_policies (partner_id, beneficiary_required, address_book_only, address_cooldown_seconds, updated_at, updated_by)
   VALUES ($1, $2, $3, $4, $5, $6)
   ON CONFLICT (partner_id) DO UPDATE SET beneficiary_required = EXCLUDED.beneficiary_required, address_book_only = EXCLUDED.address_book_only,
     address_cooldown_seconds = EXCLUDED.address_cooldown_seconds, updated_at = EXCLUDED.updated_at, updated_by = EXCLUDED.updated_by`,
);
/** Saves it for a user the partner has (nothing otherwise); saved again: its label, owner and proof replaced, its first save kept. */
const SAVE = statement(
  'destinations_save',
  `INSERT INTO saved_addresses (partner_id, document, address, label, beneficiary, proof, created_at, updated_at)
   SELECT $1, $2, $3, $4, $5::jsonb, $6, $7, $7 WHERE EXISTS (SELECT 1 FROM accounts WHERE partner_id = $1 AND document = $2)
   ON CONFLICT (partner_id, document, address) DO UPDATE SET label = EXCLUDED.label, beneficiary = EXCLUDED.beneficiary,
     proof = EXCLUDED.proof, updated_at = EXCLUDED.updated_at
   RETURNING address, label, beneficiary, proof, created_at`,
);
const REMOVE = statement(
  'destinations_remove',
  'DELETE FROM saved_addresses WHERE partner_id = $1 AND document = $2 AND address = $3 RETURNING address, label, beneficiary, proof, created_at',
);
const LIST = statement(
  'destinations_list',
  'SELECT address, label, beneficiary, proof, created_at FROM saved_addresses WHERE partner_id = $1 AND document = $2 ORDER BY created_at, address',
);

/** Withdrawal policies (withdrawals.withdrawal_policies) and users' address books (withdrawals.saved_addresses), scoped by partner. */
@Injectable()
export class DestinationsRepository {
  constructor(private readonly db: Database) {}

  async policy(partnerId: PartnerId): Promise<WithdrawalPolicy> {
    const { rows } = await this.db.query<PolicyRow>(POLICY, [partnerId]);
    return toPolicy(rows[0]);
  }

  /** The partner's policy and the user's saved entry for `address` (lower case), in one query. */
  async forWithdrawal(
    partnerId: PartnerId,
    document: string,
    address: string,
  ): Promise<{ policy: WithdrawalPolicy; saved: SavedAddress | null }> {
    const { rows } = await this.db.query<PolicyRow & Partial<SavedRow>>(FOR_WITHDRAWAL, [partnerId, document, address]);
    const row = rows[0];
    return {
      policy: toPolicy(row),
      saved: row?.address && row.beneficiary && row.created_at ? toSaved(row as SavedRow) : null,
    };
  }

  async setPolicy(partnerId: PartnerId, p: Omit<WithdrawalPolicy, 'updatedAt' | 'updatedBy'>, by: string, at: Date): Promise<void> {
    await this.db.query(PUT_POLICY, [partnerId, p.beneficiaryRequired, p.addressBookOnly, p.addressCooldownSeconds, at, by]);
  }

  /** Saves it (lower case); null when the partner has no such user. */
  async save(
    partnerId: PartnerId,
    document: string,
    entry: { address: string; label: string | null; beneficiary: Beneficiary; proof: string | null },
    at: Date,
  ): Promise<SavedAddress | null> {
    const values = [partnerId, document, entry.address, entry.label, JSON.stringify(entry.beneficiary), entry.proof, at];
    const { rows } = await this.db.query<SavedRow>(SAVE, values);
    return rows[0] ? toSaved(rows[0]) : null;
  }

  async remove(partnerId: PartnerId, document: string, address: string): Promise<SavedAddress | null> {
    const { rows } = await this.db.query<SavedRow>(REMOVE, [partnerId, document, address]);
    return rows[0] ? toSaved(rows[0]) : null;
  }

  async list(partnerId: PartnerId, document: string): Promise<SavedAddress[]> {
    const { rows } = await this.db.query<SavedRow>(LIST, [partnerId, document]);
    return rows.map(toSaved);
  }
}
