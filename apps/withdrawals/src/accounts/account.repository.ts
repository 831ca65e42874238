import { Injectable } from '@nestjs/common';
import { PrismaService, Tx } from '../prisma/prisma.service';

export type LedgerReason = 'sandbox_credit' | 'withdrawal_hold' | 'withdrawal_settle' | 'withdrawal_release';

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

  find(partnerId: string, document: string): Promise<Balance | null> {
    return this.prisma.account.findUnique({
      where: { partnerId_document: { partnerId, document } },
      select: { availableMicros: true, heldMicros: true },
    });
  }

  /** Creates the account with `micros`, or adds them to it. Tells whether it was created. */
  async credit(tx: Tx, partnerId: string, document: string, micros: bigint): Promise<Balance & { created: boolean }> {
    const [row] = await tx.$queryRaw<Array<{ available_micros: bigint; held_micros: bigint; created: boolean }>>`
      INSERT INTO "withdrawals"."accounts" (partner_id, document, available_micros, held_micros, updated_at)
      VALUES (${partnerId}::uuid, ${document}, ${micros}, 0, now())
      ON CONFLICT (partner_id, document)
      DO UPDATE SET available_micros = accounts.available_micros + EXCLUDED.available_micros, updated_at = now()
      RETURNING available_micros, held_micros, (xmax = 0) AS created`;
    await this.ledger(tx, partnerId, document, 'sandbox_credit', micros, 0n);
    return { availableMicros: row.available_micros, heldMicros: row.held_micros, created: row.created };
  }

  /** Moves `micros` from available to held if the balance allows it. */
  async hold(tx: Tx, partnerId: string, document: string, micros: bigint, withdrawalId: number): Promise<'held' | 'not_found' | 'insufficient'> {
    const { count } = await tx.account.updateMany({
      where: { partnerId, document, availableMicros: { gte: micros } },
      data: { availableMicros: { decrement: micros }, heldMicros: { increment: micros } },
    });
    if (count === 1) {
      await this.ledger(tx, partnerId, document, 'withdrawal_hold', -micros, micros, withdrawalId);
      return 'held';
    }
    const exists = await tx.account.count({ where: { partnerId, document } });
    return exists ? 'insufficient' : 'not_found';
  }

  /** The held amount leaves the account for good (the transfer settled). */
  async capture(tx: Tx, partnerId: string, document: string, micros: bigint, withdrawalId: number): Promise<void> {
    await this.moveHeld(tx, partnerId, document, micros, 0n, 'withdrawal_settle', withdrawalId);
  }

  /** The held amount goes back to available (the transfer failed). */
  async release(tx: Tx, partnerId: string, document: string, micros: bigint, withdrawalId: number): Promise<void> {
    await this.moveHeld(tx, partnerId, document, micros, micros, 'withdrawal_release', withdrawalId);
  }

  private async moveHeld(tx: Tx, partnerId: string, document: string, micros: bigint, back: bigint, reason: LedgerReason, withdrawalId: number) {
    const { count } = await tx.account.updateMany({
      where: { partnerId, document, heldMicros: { gte: micros } },
      data: { heldMicros: { decrement: micros }, availableMicros: { increment: back } },
    });
    // A missing hold means the books are wrong; abort the transaction rather than write a bad ledger.
    if (count !== 1) throw new Error(`No hold of ${micros} micros for withdrawal ${withdrawalId}`);
    await this.ledger(tx, partnerId, document, reason, back, -micros, withdrawalId);
  }

  private async ledger(tx: Tx, partnerId: string, document: string, reason: LedgerReason, availableDelta: bigint, heldDelta: bigint, withdrawalId?: number) {
    await tx.ledgerEntry.create({ data: { partnerId, document, reason, availableDelta, heldDelta, withdrawalId } });
  }
}
