import { Injectable } from '@nestjs/common';
import { PartnerId, UserAccount } from '@partner/contracts';
import { Database, statement } from '@partner/db';

/**
 * Returns a row when the user was new (`created`) or got a name or an account; a known user the command
 * brings nothing new for is left untouched (no row). A concurrent insert of the same user waits on the
 * primary key, then updates. A name or an account replaces the one known; an absent one keeps it, so an
 * upsert with the document alone (every client before accounts existed) never erases what the operator gave.
 * The default name ($9) is the name only of a user that has none.
 */
const UPSERT = statement(
  'pix_keys_user_upsert',
  `INSERT INTO users AS u (partner_id, document, name, account_ispb, account_branch, account_number, account_type, account_opened_at)
   VALUES ($1, $2, COALESCE($3, $9), $4, $5, $6, $7, $8)
   ON CONFLICT (partner_id, document) DO UPDATE SET
     name = COALESCE($3, u.name, $9),
     account_ispb = CASE WHEN EXCLUDED.account_ispb IS NULL THEN u.account_ispb ELSE EXCLUDED.account_ispb END,
     account_branch = CASE WHEN EXCLUDED.account_ispb IS NULL THEN u.account_branch ELSE EXCLUDED.account_branch END,
     account_number = CASE WHEN EXCLUDED.account_ispb IS NULL THEN u.account_number ELSE EXCLUDED.account_number END,
     account_type = CASE WHEN EXCLUDED.account_ispb IS NULL THEN u.account_type ELSE EXCLUDED.account_type END,
     account_opened_at = CASE WHEN EXCLUDED.account_ispb IS NULL THEN u.account_opened_at ELSE EXCLUDED.account_opened_at END
   WHERE $3::text IS NOT NULL OR EXCLUDED.account_ispb IS NOT NULL OR (u.name IS NULL AND $9::text IS NOT NULL)
   RETURNING created_at, (xmax = 0) AS created`,
);

const CREATED_AT = statement('pix_keys_user_created_at', 'SELECT created_at FROM users WHERE partner_id = $1 AND document = $2');

/** The holder's name and the account the upsert carries; each may be absent. */
export interface UserHolder {
  name?: string;
  /** The name of a user that has none (never replaces one). */
  defaultName?: string;
  account?: Omit<UserAccount, 'opened_at'> & { openedAt: Date };
}

/**
 * The users of each partner who may own a Pix key, with what DICT records with the key: the holder's name
 * and the payment account (docs/api.md, "Pix keys"). The creation of a key checks its user and copies both
 * inside its own statement (PixKeyRepository.createClaimed). One statement per upsert (no event, so no unit of work).
 */
@Injectable()
export class UserRepository {
  constructor(private readonly db: Database) {}

  /** Records the user unless known, and sets the name and account given; tells whether it was new. Safe under concurrent calls. */
  async upsert(partnerId: PartnerId, document: string, holder: UserHolder = {}): Promise<{ created: boolean; createdAt: Date }> {
    const a = holder.account;
    const { rows } = await this.db.query<{ created_at: Date; created: boolean }>(UPSERT, [
      partnerId,
      document,
      holder.name ?? null,
      a?.ispb ?? null,
      a?.branch ?? null,
      a?.number ?? null,
      a?.type ?? null,
      a?.openedAt ?? null,
      holder.defaultName ?? null,
    ]);
    if (rows[0]) return { created: rows[0].created, createdAt: rows[0].created_at };
    // Known already, nothing to set: this second statement sees the committed row.
    const known = await this.db.query<{ created_at: Date }>(CREATED_AT, [partnerId, document]);
    return { created: false, createdAt: known.rows[0].created_at };
  }
}
