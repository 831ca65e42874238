import { randomUUID } from 'node:crypto';
import { pollUntil } from './poll';

/** What can run a statement: a pg Client, PoolClient or Pool. */
export interface LeaseSql {
  query(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}

/** Long enough for what a spec or a fault does meanwhile (a transfer and its receipt); a dead holder's lease still ends. */
const HOLD_MS = 120_000;

/**
 * Runs `work` while no payout round of `network` runs: it holds the round's lease row
 * (withdrawals.payout_round_leases, docs/adr/0030-payout-round-leases.md) as a round does, claimed once it is
 * free, and gives it back after. For what specs and the chaos run do as the hot wallet (an outside transfer):
 * no payout of ours is signed and left unsent meanwhile, so the hand-made transaction takes no nonce of ours.
 */
export async function whilePayoutRoundHeld<T>(db: LeaseSql, network: string, work: () => Promise<T>): Promise<T> {
  const owner = `operator-hold:${randomUUID()}`;
  await pollUntil(
    `the ${network} payout round's lease`,
    async () =>
      (
        await db.query(
          `INSERT INTO withdrawals.payout_round_leases (network, owner, locked_until)
           VALUES ($1, $2, now() + $3 * interval '1 millisecond')
           ON CONFLICT (network) DO UPDATE SET owner = EXCLUDED.owner, locked_until = EXCLUDED.locked_until
           WHERE payout_round_leases.locked_until < now()
           RETURNING owner`,
          [network, owner, HOLD_MS],
        )
      ).rows.length === 1,
    (claimed) => claimed,
    { timeoutMs: 60_000, intervalMs: 50 },
  );
  try {
    return await work();
  } finally {
    await db.query('DELETE FROM withdrawals.payout_round_leases WHERE network = $1 AND owner = $2', [network, owner]);
  }
}
