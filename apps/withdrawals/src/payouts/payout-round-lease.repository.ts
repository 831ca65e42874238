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
 * transaction stays open across the round's RPC calls. A holder that dies leaves a lease that expires, or
 * that its own host takes over at once when it can tell the holder is gone (`goneFromThisHost`): a payout
 * process restarted on the same host (or container) does not wait out the time to live of its predecessor.
 */
export class PayoutRoundLeaseRepository {
  private readonly logger = new Logger('payouts');

  /** `self`: who claims, in each claim's owner (`host:pid:boot:round`); this process but in specs. */
  constructor(
    private readonly db: Database,
    private readonly ttlMs = ROUND_LEASE_TTL_MS,
    private readonly self: LeaseHolder = THIS_PROCESS,
  ) {}

  /** Runs `work` holding `network`'s lease; `{ ran: false }` without running it when another holder has the lease. */
  async whileHeld<T>(network: Network, work: () => Promise<T>): Promise<{ ran: true; value: T } | { ran: false }> {
    const owner = `${this.self.host}:${this.self.pid}:${this.self.boot}:${randomUUID()}`;
    if (!(await this.claim(network, owner)) && !(await this.takeOverFromGone(network, owner))) return { ran: false };
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

  /**
   * Takes the lease from a holder this host knows is gone (see goneFromThisHost), atomically: only if the
   * lease still names that holder, so two processes that saw it at once do not both take it.
   */
  private async takeOverFromGone(network: Network, owner: string): Promise<boolean> {
    const { rows } = await this.db.query<{ owner: string }>('SELECT owner FROM payout_round_leases WHERE network = $1', [network]);
    const holder = rows[0]?.owner;
    if (holder === undefined || !goneFromThisHost(holder, this.self, isAlive)) return false;
    const { rowCount } = await this.db.query(
      `UPDATE payout_round_leases SET owner = $3, locked_until = now() + $4 * interval '1 millisecond' WHERE network = $1 AND owner = $2`,
      [network, holder, owner, this.ttlMs],
    );
    if (rowCount !== 1) return false;
    this.logger.warn(`payouts on ${network}: took over the round's lease of ${holder}, a process of this host that is gone`);
    return true;
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

/** Who claims a lease: the host (or container) and process, and this start of it (a restarted container reuses pids). */
export interface LeaseHolder {
  host: string;
  pid: number;
  boot: string;
}

/**
 * This process: who holds a lease, for an operator reading the table and for the next process on this
 * host to tell that it is gone. One for the process, so that its repositories never take from each other.
 */
const THIS_PROCESS: LeaseHolder = { host: hostname(), pid: process.pid, boot: randomUUID() };

/**
 * Whether the lease's `owner` is a process of `self`'s host that is gone: an earlier start under the same
 * pid (we hold that pid now), or another pid that no longer runs. Anything else (another host, a live pid,
 * an owner it cannot read) is not known to be gone: its lease expires. A pid reused by an unrelated
 * process reads as alive, which only costs the wait; two containers sharing a hostname could read a live
 * holder as gone, which costs two rounds at once (the wallet's row lock still serialises the signing).
 */
export function goneFromThisHost(owner: string, self: LeaseHolder, alive: (pid: number) => boolean): boolean {
  const [host, pidText, boot] = owner.split(':');
  const pid = Number(pidText);
  if (host !== self.host || !Number.isInteger(pid) || pid <= 0) return false;
  if (pid === self.pid) return boot !== self.boot;
  return !alive(pid);
}

/** Whether a process of this pid namespace runs (signal 0 checks without sending; EPERM: it runs as another user). */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}
