import { Injectable } from '@nestjs/common';
import { StoredScreeningList } from '@partner/contracts';
import { Database, statement, Transaction } from '@partner/db';

/** An address listed, and by which list (with the copy's date for a dated list). */
export interface Listing {
  address: string;
  list: StoredScreeningList;
  publishedAt: Date | null;
}

/** The dated copy of a list, as kept. */
export interface ScreeningCopy {
  list: StoredScreeningList;
  source: string;
  publishedAt: Date;
  loadedAt: Date;
  loadedBy: string;
  addresses: number;
}

export interface DenyListEntry {
  address: string;
  note: string;
  addedBy: string;
  addedAt: Date;
}

interface EntryRow {
  address: string;
  note: string | null;
  added_by: string;
  added_at: Date;
}

const toEntry = (r: EntryRow): DenyListEntry => ({ address: r.address, note: r.note ?? '', addedBy: r.added_by, addedAt: r.added_at });

const LISTED = statement(
  'screening_listed',
  `SELECT s.address, s.list, c.published_at FROM screened_addresses s LEFT JOIN screening_copies c ON c.list = s.list
   WHERE s.address = ANY($1::text[]) ORDER BY s.address, s.list DESC`,
);
const COPIES = statement(
  'screening_copies',
  `SELECT c.*, (SELECT count(*) FROM screened_addresses s WHERE s.list = c.list)::int AS addresses FROM screening_copies c ORDER BY c.list`,
);
const COUNT = statement('screening_count', 'SELECT count(*)::int AS n FROM screened_addresses WHERE list = $1');
/** The new copy's row, unless the one kept is newer, or as new when $6 (a copy of the same date replaces it) is false. */
const PUT_COPY = statement(
  'screening_put_copy',
  `INSERT INTO screening_copies (list, source, published_at, loaded_at, loaded_by) VALUES ($1, $2, $3, $4, $5)
   ON CONFLICT (list) DO UPDATE SET source = EXCLUDED.source, published_at = EXCLUDED.published_at, loaded_at = EXCLUDED.loaded_at,
                                    loaded_by = EXCLUDED.loaded_by
   WHERE screening_copies.published_at < EXCLUDED.published_at OR ($6 AND screening_copies.published_at = EXCLUDED.published_at)
   RETURNING list`,
);
const DROP_LIST = statement('screening_drop_list', 'DELETE FROM screened_addresses WHERE list = $1');
const FILL_LIST = statement(
  'screening_fill_list',
  `INSERT INTO screened_addresses (address, list, added_by, added_at) SELECT DISTINCT a, $1::text, $3::text, $4::timestamptz FROM unnest($2::text[]) AS a`,
);
const ADD_DENIED = statement(
  'screening_add_denied',
  `INSERT INTO screened_addresses (address, list, note, added_by, added_at) VALUES ($1, 'deny_list', $2, $3, $4)
   ON CONFLICT (address, list) DO NOTHING RETURNING address, note, added_by, added_at`,
);
const DENIED = statement(
  'screening_denied',
  `SELECT address, note, added_by, added_at FROM screened_addresses WHERE list = 'deny_list' AND address = $1`,
);
const REMOVE_DENIED = statement(
  'screening_remove_denied',
  `DELETE FROM screened_addresses WHERE list = 'deny_list' AND address = $1 RETURNING address, note, added_by, added_at`,
);
const DENY_PAGE = statement(
  'screening_deny_page',
  `SELECT address, note, added_by, added_at FROM screened_addresses WHERE list = 'deny_list' AND address > $1 ORDER BY address LIMIT $2`,
);

/**
 * The screening lists the service keeps (withdrawals.screened_addresses, withdrawals.screening_copies): the
 * SDN copy and the operator's deny list. Operator data, not a partner's: no method is scoped by partner.
 * Addresses are compared in lower case; callers pass them so.
 */
@Injectable()
export class ScreeningRepository {
  constructor(private readonly db: Database) {}

  /** Every listing of `addresses` (lower case); of an address on both lists, the SDN's first. */
  async listed(addresses: readonly string[]): Promise<Listing[]> {
    if (addresses.length === 0) return [];
    const { rows } = await this.db.query<{ address: string; list: StoredScreeningList; published_at: Date | null }>(LISTED, [addresses]);
    return rows.map((r) => ({ address: r.address, list: r.list, publishedAt: r.published_at }));
  }

  async copies(): Promise<ScreeningCopy[]> {
    const { rows } = await this.db.query<{
      list: StoredScreeningList;
      source: string;
      published_at: Date;
      loaded_at: Date;
      loaded_by: string;
      addresses: number;
    }>(COPIES, []);
    return rows.map((r) => ({
      list: r.list,
      source: r.source,
      publishedAt: r.published_at,
      loadedAt: r.loaded_at,
      loadedBy: r.loaded_by,
      addresses: r.addresses,
    }));
  }

  async count(list: StoredScreeningList): Promise<number> {
    const { rows } = await this.db.query<{ n: number }>(COUNT, [list]);
    return rows[0]?.n ?? 0;
  }

  /**
   * Replaces the list's copy and its addresses (lower case), unless the copy kept was published later (or on
   * the same date, when `sameDate` is false): then false and nothing changed. Concurrent replacements take the
   * copy's row in turn.
   */
  async replaceCopy(
    tx: Transaction,
    list: 'ofac_sdn',
    copy: { source: string; publishedAt: Date; loadedBy: string; addresses: readonly string[] },
    now: Date,
    sameDate: boolean,
  ): Promise<boolean> {
    const { rows } = await tx.query(PUT_COPY, [list, copy.source, copy.publishedAt, now, copy.loadedBy, sameDate]);
    if (rows.length === 0) return false;
    await tx.query(DROP_LIST, [list]);
    await tx.query(FILL_LIST, [list, copy.addresses, copy.loadedBy, now]);
    return true;
  }

  /** Adds the address (lower case) to the deny list: the new entry, or null when it was listed already. */
  async deny(tx: Transaction, entry: DenyListEntry): Promise<DenyListEntry | null> {
    const { rows } = await tx.query<EntryRow>(ADD_DENIED, [entry.address, entry.note, entry.addedBy, entry.addedAt]);
    return rows[0] ? toEntry(rows[0]) : null;
  }

  async denied(address: string): Promise<DenyListEntry | null> {
    const { rows } = await this.db.query<EntryRow>(DENIED, [address]);
    return rows[0] ? toEntry(rows[0]) : null;
  }

  /** Lifts the address's entry: what it was, or null when the address was not on the deny list. */
  async undeny(address: string): Promise<DenyListEntry | null> {
    const { rows } = await this.db.query<EntryRow>(REMOVE_DENIED, [address]);
    return rows[0] ? toEntry(rows[0]) : null;
  }

  /** The deny list by address, after `after` (lower case; '' for the first page). */
  async denyPage(after: string, limit: number): Promise<DenyListEntry[]> {
    const { rows } = await this.db.query<EntryRow>(DENY_PAGE, [after, limit]);
    return rows.map(toEntry);
  }
}
