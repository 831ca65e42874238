import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { hostname } from 'node:os';
import { loadConfig } from '@partner/config';
import { Network } from '@partner/contracts';
import { Database } from '@partner/db';
import { pollUntil } from '@partner/testing';
import { WithdrawalsConfig } from '../config/withdrawals.config';
import { DB_SCHEMA } from '../database/db-schema';
import { PayoutRoundLeaseRepository } from './payout-round-lease.repository';
import { transactionPooled } from './transaction-pooling.spec-support';

// Integration: the test database npm test starts. Each test its own network name, so that the payout
// specs' rounds (ETH, MATIC) running beside these never meet their leases.
const config = loadConfig(WithdrawalsConfig, process.env);
const db = new Database(config, DB_SCHEMA);
afterAll(() => db.close());

const network = () => `TEST-${randomUUID()}` as Network;
/** A promise and its resolver: work held open until the test lets it go. */
const gate = () => {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
};

describe('PayoutRoundLeaseRepository (PostgreSQL)', () => {
  it('lets one holder at a time run, among instances contending at once, behind transaction pooling', async () => {
    const pooled = await transactionPooled(db);
    try {
      const instances = Array.from({ length: 5 }, () => new PayoutRoundLeaseRepository(pooled, 5_000));
      const n = network();
      let active = 0;
      let most = 0;
      for (let round = 0; round < 20; round++) {
        const ran = await Promise.all(
          instances.map((leases) =>
            leases.whileHeld(n, async () => {
              most = Math.max(most, ++active);
              // Held across a few round trips to the database, as a round's work is.
              await pooled.query('SELECT pg_sleep(0.01)');
              active--;
            }),
          ),
        );
        // Never none: the lease of the previous round was given back (a late contender may run after the winner).
        expect(ran.filter((r) => r.ran).length).toBeGreaterThanOrEqual(1);
      }
      // Never two at once.
      expect(most).toBe(1);
    } finally {
      pooled.end();
    }
  });

  it('keeps the lease past its time to live while the holder runs (renewed), and gives it back at the end', async () => {
    const n = network();
    const holder = new PayoutRoundLeaseRepository(db, 300);
    const other = new PayoutRoundLeaseRepository(db, 300);
    const { open, opened } = gate();
    const held = holder.whileHeld(n, () => opened);
    await pollUntil(
      'the holder inside its round',
      async () => (await db.query('SELECT 1 FROM payout_round_leases WHERE network = $1', [n])).rowCount,
      (c) => c === 1,
    );
    // Four times the time to live: a lease that was not renewed would have expired by the end.
    const until = Date.now() + 1_200;
    let tries = 0;
    while (Date.now() < until) {
      expect((await other.whileHeld(n, () => Promise.resolve())).ran).toBe(false);
      tries++;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(tries).toBeGreaterThan(5);
    open();
    await held;
    expect((await other.whileHeld(n, () => Promise.resolve('ran'))).ran).toBe(true);
  });

  /** The pid of a process of this host that ran and is gone (killed). */
  const deadPid = async () => {
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    const exited = once(child, 'exit');
    child.kill('SIGKILL');
    await exited;
    return child.pid as number;
  };

  /** What a process killed inside its round leaves: a claim nobody renews nor deletes, for `ttl` more. */
  const leftBy = (n: Network, owner: string, ttl = '30 seconds') =>
    db.query(`INSERT INTO payout_round_leases (network, owner, locked_until) VALUES ($1, $2, now() + $3::interval)`, [n, owner, ttl]);

  it('takes over at once the lease of a process of this host that is gone, not of one that runs', async () => {
    // A payout process killed in its round and started again: another pid on this host, no longer running.
    const gonePid = await deadPid();
    const killed = network();
    await leftBy(killed, `${hostname()}:${gonePid}:${randomUUID()}:${randomUUID()}`);
    // A container restarted: the same pid as this process, another start of it.
    const restarted = network();
    await leftBy(restarted, `${hostname()}:${process.pid}:${randomUUID()}:${randomUUID()}`);
    // Still running on this host (this test's parent), and a holder on another host: both wait.
    const running = network();
    await leftBy(running, `${hostname()}:${process.ppid}:${randomUUID()}:${randomUUID()}`);
    const elsewhere = network();
    await leftBy(elsewhere, `another-host:${gonePid}:${randomUUID()}:${randomUUID()}`);

    const leases = new PayoutRoundLeaseRepository(db, 5_000);
    const ran = async (n: Network) => (await leases.whileHeld(n, () => Promise.resolve())).ran;
    expect({ killed: await ran(killed), restarted: await ran(restarted) }).toEqual({ killed: true, restarted: true });
    expect({ running: await ran(running), elsewhere: await ran(elsewhere) }).toEqual({ running: false, elsewhere: false });
  });

  it("lets one of two processes of the host take a gone holder's lease, never both", async () => {
    const n = network();
    await leftBy(n, `${hostname()}:${await deadPid()}:${randomUUID()}:${randomUUID()}`);
    // Two processes of this host: this one and its parent (running), each with its own start.
    const [a, b] = [process.pid, process.ppid].map(
      (pid) => new PayoutRoundLeaseRepository(db, 5_000, { host: hostname(), pid, boot: randomUUID() }),
    );
    const { open, opened } = gate();
    const tries = [a.whileHeld(n, () => opened), b.whileHeld(n, () => opened)];
    // The first to answer is the one that did not take it (the taker waits in its round, held open): it
    // met the taker's lease, not a row already given back.
    expect(await Promise.race(tries)).toEqual({ ran: false });
    open();
    expect((await Promise.all(tries)).filter((r) => r.ran)).toHaveLength(1);
  });

  it("takes over a crashed holder's lease once it expired, not before", async () => {
    const n = network();
    // What a process killed inside its round leaves: a claim nobody renews nor deletes.
    await db.query(`INSERT INTO payout_round_leases (network, owner, locked_until) VALUES ($1, 'crashed:1', now() + interval '1 second')`, [
      n,
    ]);
    const leases = new PayoutRoundLeaseRepository(db, 5_000);
    const started = Date.now();
    expect((await leases.whileHeld(n, () => Promise.resolve())).ran).toBe(false);
    await pollUntil(
      "the crashed holder's lease taken over",
      () => leases.whileHeld(n, () => Promise.resolve()),
      (r) => r.ran,
      {
        timeoutMs: 10_000,
        intervalMs: 100,
      },
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  });
});
