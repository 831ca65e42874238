import { Database, UnitOfWork } from '@partner/db';
import { pollUntil } from '@partner/testing';
import { AccountRepository } from '../accounts/account.repository';
import { WithdrawalsConfig } from '../config/withdrawals.config';
import { HotWalletRepository } from '../hot-wallets/hot-wallet.repository';
import { ReconciliationRepository } from '../reconciliation/reconciliation.repository';
import { ReconcileUseCase } from '../reconciliation/reconcile.use-case';
import { GuardWalletNonceUseCase } from './guard-wallet-nonce.use-case';
import { PayoutMetrics } from './payout-metrics';
import { PayoutRoundLeaseRepository } from './payout-round-lease.repository';
import { PayoutRoundsService } from './payout-rounds.service';
import { networkSettings } from './payout-settings';
import { PayoutRepository } from './payout.repository';
import { railsFor, signerFor } from './payouts.module';
import { SignPayoutsUseCase } from './sign-payouts.use-case';
import { TrackPayoutsUseCase } from './track-payouts.use-case';

/**
 * The payouts wired as the module wires them, for integration specs: against the local chains and the
 * test database npm test starts (CHAIN_* and HOT_WALLET_KEY_FILE in the environment). Nothing is mocked.
 */
export function payoutKit(config: WithdrawalsConfig, db: Database) {
  const unitOfWork = new UnitOfWork(db, { wake: () => undefined });
  const metrics = new PayoutMetrics();
  const rails = railsFor(config);
  const signer = signerFor(config);
  const payouts = new PayoutRepository(db);
  const hotWallets = new HotWalletRepository(db);
  const findings = new ReconciliationRepository(db);
  const sign = new SignPayoutsUseCase(config, unitOfWork, payouts, hotWallets, metrics, rails, signer);
  const track = new TrackPayoutsUseCase(config, unitOfWork, payouts, new AccountRepository(db), findings, metrics, rails, signer);
  const guard = new GuardWalletNonceUseCase(unitOfWork, hotWallets, findings, metrics, rails);
  const rounds = new PayoutRoundsService(
    config,
    new PayoutRoundLeaseRepository(db),
    hotWallets,
    sign,
    track,
    guard,
    metrics,
    rails,
    signer,
  );
  const reconcile = new ReconcileUseCase(config, findings, hotWallets, guard, metrics, rails, signer);
  const settings = networkSettings(config);
  return {
    rounds,
    rails,
    signer,
    settings,
    metrics,
    reconcile,
    guard,
    /** Runs payout rounds until every one of `ids` is in one of `states` (polling with a deadline). */
    async until(ids: number[], states: string[], timeoutMs = 30_000): Promise<void> {
      await pollUntil(
        `withdrawals ${ids.join(', ')} to reach ${states.join(' or ')}`,
        async () => {
          await rounds.runOnce();
          const { rows } = await db.query<{ state: string }>('SELECT state FROM withdrawals WHERE id = ANY($1::int[])', [ids]);
          return rows.map((r) => r.state);
        },
        (found) => found.length === ids.length && found.every((s) => states.includes(s)),
        { timeoutMs, intervalMs: 100 },
      );
    },
  };
}
