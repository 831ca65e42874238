import { loadConfig } from '@partner/config';
import { Database } from '@partner/db';
import { pollUntil } from '@partner/testing';
import { WithdrawalsConfig } from '../config/withdrawals.config';
import { DB_SCHEMA } from '../database/db-schema';
import { payoutKit } from './payout-kit.spec-support';
import { transactionPooled } from './transaction-pooling.spec-support';

// Integration: the test database and the local chains npm test starts, the database reached as through a
// transaction-pooling PgBouncer (transactionPooled): two instances' rounds of one network never run at once.
const config = loadConfig(WithdrawalsConfig, process.env);
const db = new Database(config, DB_SCHEMA);
afterAll(() => db.close());

/** A kit whose ETH rounds are counted where they start (the node's chain id is read first) and may be held there. */
function instance(pooled: Database) {
  const kit = payoutKit(config, pooled);
  const chainId = kit.rails.ETH.chainId.bind(kit.rails.ETH);
  const state = { entered: 0, inside: 0, hold: undefined as Promise<void> | undefined };
  (kit.rails.ETH as { chainId: () => Promise<number> }).chainId = async () => {
    state.entered++;
    state.inside++;
    try {
      await state.hold;
      return await chainId();
    } finally {
      state.inside--;
    }
  };
  return { kit, state };
}

describe('payout rounds behind transaction pooling (PostgreSQL + the local chains)', () => {
  it("never runs two instances' rounds of one network at once, and runs one again once the first ended", async () => {
    const pooled = await transactionPooled(db);
    try {
      const a = instance(pooled);
      const b = instance(pooled);
      // Verified at start (the chains checked), so that each round reads the chain id once, where it is counted.
      await Promise.all([a.kit.rounds.checkChains(), b.kit.rounds.checkChains()]);
      a.state.entered = b.state.entered = 0;
      for (let i = 0; i < 5; i++) {
        let release!: () => void;
        a.state.hold = new Promise<void>((resolve) => (release = resolve));
        // A enters its ETH round and stays inside (another spec's round may hold the network a moment: asked again).
        let aRound: Promise<void> | undefined;
        await pollUntil(
          'instance A inside its ETH round',
          async () => {
            aRound ??= a.kit.rounds.runOnce().then(() => void (aRound = undefined));
            return a.state.inside;
          },
          (inside) => inside === 1,
          { timeoutMs: 20_000, intervalMs: 20 },
        );
        // Meanwhile B's rounds go on (MATIC), but its ETH round does not start.
        const before = b.state.entered;
        await b.kit.rounds.runOnce();
        await b.kit.rounds.runOnce();
        expect(b.state.entered).toBe(before);
        release();
        a.state.hold = undefined;
        await aRound;
        // Once A's round ended, B's next ETH round runs.
        await pollUntil(
          'instance B running its ETH round after A',
          async () => {
            await b.kit.rounds.runOnce();
            return b.state.entered;
          },
          (entered) => entered > before,
          { timeoutMs: 20_000, intervalMs: 50 },
        );
      }
    } finally {
      pooled.end();
    }
  });
});
