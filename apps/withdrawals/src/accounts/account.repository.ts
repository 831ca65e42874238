import { Injectable } from '@nestjs/common';
import { statement, Transaction } from '@partner/kafka';
import { PrismaService } from '../prisma/prisma.service';

export type LedgerReason = 'sandbox_credit' | 'withdrawal_hold' | 'withdrawal_settle' | 'withdrawal_release';

/** A hold that ends: captured (the transfer settled) or released back to available (it failed). */
export interface HoldEnd {
  partnerId: string;
  document: string;
  withdrawalId: number;
  micros: bigint;
  released: boolean;
}

const END_HOLDS = statement(
  'accounts_end_holds',
  `WITH input AS (
     SELECT * FROM unnest($1::uuid[], $2::text[], $3::bigint[], $4::bigint[]) AS i(partner_id, document, held, back)),
   updated AS (
     UPDATE accounts a SET held_micros = a.held_micros - i.held, available_micros = a.available_micros + i.back, updated_at = $5
     FROM input i WHERE a.partner_id = i.partner_id AND a.document = i.document AND a.held_micros >= i.held
     RETURNING 1)
   SELECT count(*)::int AS updated FROM updated`,
);

const FIND = statement('accounts_find', 'SELECT available_micros, held_micros FROM accounts WHERE partner_id = $1 AND document = $2');

/** The sandbox credit: the account created or topped up, and its ledger entry, in one statement. */
const CREDIT = statement(
  'accounts_credit',
  `WITH credited AS (
     INSERT INTO accounts (partner_id, document, available_micros, held_micros, updated_at)
     VALUES ($1, $2, $3, 0, $4)
     ON CONFLICT (partner_id, document)
     DO UPDATE SET available_micros = accounts.available_micros + EXCLUDED.available_micros, updated_at = $4
     RETURNING available_micros, held_micros, (xmax = 0) AS created),
   ledger AS (
     INSERT INTO ledger_entries (partner_id, document, reason, available_delta, held_delta, created_at)
     VALUES ($1, $2, 'sandbox_credit', $3, 0, $4))
   SELECT available_micros, held_micros, created FROM credited`,
);

const LEDGER_MANY = statement(
  'ledger_insert_many',
  `INSERT INTO ledger_entries (partner_id, document, reason, available_delta, held_delta, withdrawal_id, created_at)
   SELECT partner_id, document, reason, available_delta, held_delta, withdrawal_id, $7
   FROM unnest($1::uuid[], $2::text[], $3::text[], $4::bigint[], $5::bigint[], $6::int[])
        AS e(partner_id, document, reason, available_delta, held_delta, withdrawal_id)`,
);

export interface Balance {
  availableMicros: bigint;
  heldMicros: bigint;
}

/**
 * A user's USDT account under one partner. Every movement of money goes through here and writes its
 * ledger entry in the same transaction; the guarded UPDATEs (and CHECK constraints below them) make
 * an overdraft impossible under any concurrency.
 */
@Injectable()
export class AccountRepository {
  constructor(private readonly prisma: PrismaService) {}

  async find(partnerId: string, document: string): Promise<Balance | null> {
    const { rows } = await this.prisma.pool.query<{ available_micros: string; held_micros: string }>({ ...FIND, values: [partnerId, document] });
    return rows[0] ? { availableMicros: BigInt(rows[0].available_micros), heldMicros: BigInt(rows[0].held_micros) } : null;
  }

  /** Creates the account with `micros`, or adds them to it, with its ledger entry. Tells whether it was created. */
  async credit(tx: Transaction, partnerId: string, document: string, micros: bigint): Promise<Balance & { created: boolean }> {
    const [row] = await tx.rows<{ available_micros: string; held_micros: string; created: boolean }>(CREDIT, [partnerId, document, micros.toString(), new Date()]);
    return { availableMicros: BigInt(row.available_micros), heldMicros: BigInt(row.held_micros), created: row.created };
  }

  /**
   * Ends the holds of withdrawals the chain confirmed, a batch in two statements: every account's held
   * amount goes down by the sum of its withdrawals (and back to available for the failed ones), guarded
   * so that a hold can never go negative; then one ledger entry per withdrawal. A missing hold means the
   * books are wrong: it throws, and the whole batch rolls back rather than write a bad ledger.
   */
  async endHolds(tx: Transaction, moves: HoldEnd[], now: Date): Promise<void> {
    if (moves.length === 0) return;
    const perAccount = new Map<string, { partnerId: string; document: string; held: bigint; back: bigint }>();
    for (const m of moves) {
      const key = `${m.partnerId}:${m.document}`;
      const sum = perAccount.get(key) ?? { partnerId: m.partnerId, document: m.document, held: 0n, back: 0n };
      sum.held += m.micros;
      if (m.released) sum.back += m.micros;
      perAccount.set(key, sum);
    }
    const accounts = [...perAccount.values()];
    const [{ updated }] = await tx.rows<{ updated: number }>(END_HOLDS, [
      accounts.map((a) => a.partnerId),
      accounts.map((a) => a.document),
      accounts.map((a) => a.held.toString()),
      accounts.map((a) => a.back.toString()),
      now,
    ]);
    if (updated !== accounts.length) throw new Error(`No hold to end on ${accounts.length - updated} of ${accounts.length} accounts`);
    await tx.rows(LEDGER_MANY, [
      moves.map((m) => m.partnerId),
      moves.map((m) => m.document),
      moves.map((m): LedgerReason => (m.released ? 'withdrawal_release' : 'withdrawal_settle')),
      moves.map((m) => (m.released ? m.micros : 0n).toString()),
      moves.map((m) => (-m.micros).toString()),
      moves.map((m) => m.withdrawalId),
      now,
    ]);
  }
}
