import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { Logger } from '@nestjs/common';
import { Network } from '@partner/contracts';
import { Database } from '@partner/db';

/** How long a claim holds without renewal: a crashed holder's network waits this long at most. */
export const ROUND_LEASE_TTL_MS = 30_000;

/**
 * One instance at a time runs a network's payout round (docs/adr/0030-payout-round-leases.md): it claims the
 * network's lease row for ROUND_LEASE_TTL_MS, renews it every third of that while the round runs, and
 * deletes it at the end. Every step is one autocommitted statement, so it holds behind a transaction-pooling
 * PgBouncer (a session's advisory lock does not: its unlock may reach another server connection), and no
 * transaction stays open across the round's RPC calls. A holder that dies leaves a lease that expires.
 */
export class PayoutRoundLeaseRepository {
  private readonly logger = new Logger('payouts');
  /** This process, in each claim's owner: who holds a lease, for an operator reading the table. */
  private readonly instance = `${hostname()}:${process.pid}`;

  constructor(
    private readonly db: Database,
    private readonly ttlMs = ROUND_LEASE_TTL_MS,
  ) {}

  /** Runs `work` holding `network`'s lease; `{ ran: false }` without running it when another holder has the lease. */
  async whileHeld<T>(network: Network, work: () => Promise<T>): Promise<{ ran: true; value: T } | { ran: false }> {
    const owner = `${this.instance}:${randomUUID()}`;
    if (!(await this.claim(network, owner))) return { ran: false };
    const renewal = setInterval(() => void this.renew(network, owner), Math.max(1, Math.floor(this.ttlMs / 3)));
    try {
      return { ran: true, value: await work() };
    } finally {
      clearInterval(renewal);
      // A failed delete leaves the lease to expire: the next round waits at most ttlMs.
      await this.db.query('DELETE FROM payout_round_leases WHERE network = $1 AND owner = $2', [network, owner]).catch(() => undefined);
    }
  }

  /** Takes the lease when nobody holds it or it expired (the database's clock decides, one for every instance). */
  private async claim(network: Network, owner: string): Promise<boolean> {
    const { rows } = await this.db.query(
      `INSERT INTO payout_round_leases (network, owner, locked_until)
       VALUES ($1, $2, now() + $3 * interval '1 millisecond')
       ON CONFLICT (network) DO UPDATE SET owner = EXCLUDED.owner, locked_until = EXCLUDED.locked_until
       WHERE payout_round_leases.locked_until < now()
       RETURNING owner`,
      [network, owner, this.ttlMs],
    );
    return rows.length === 1;
  }

  private async renew(network: Network, owner: string): Promise<void> {
    try {
      const { rowCount } = await this.db.query(
        `UPDATE payout_round_leases SET locked_until = now() + $3 * interval '1 millisecond' WHERE network = $1 AND owner = $2`,
        [network, owner, this.ttlMs],
      );
      // Expired before it was renewed (the process stalled longer than ttlMs): another round may run now;
      // the hot wallet's row lock still serialises the signing itself.
      if (rowCount === 0) this.logger.error(`payouts on ${network}: the round's lease expired before it was renewed`);
    } catch (error) {
      this.logger.warn(`payouts on ${network}: renewing the round's lease failed (${(error as Error).message})`);
    }
  }
}
