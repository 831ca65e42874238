import { Database, UnitOfWork } from '@partner/db';
import { PartnerId } from '@partner/contracts';
import { newCpf, newUuid, pollUntil, testPartnerId, withdrawalRequest } from '@partner/testing';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { AccountRepository } from '../accounts/account.repository';
import { WithdrawalsConfig } from '../config/withdrawals.config';
import { HotWalletRepository } from '../hot-wallets/hot-wallet.repository';
import { ReconciliationRepository } from '../reconciliation/reconciliation.repository';
import { ReconcileUseCase } from '../reconciliation/reconcile.use-case';
import { FindingRepository } from './finding.repository';
import { GuardWalletNonceUseCase } from './guard-wallet-nonce.use-case';
import { PayoutMetrics } from './payout-metrics';
import { PayoutRoundLeaseRepository } from './payout-round-lease.repository';
import { PayoutRoundsService } from './payout-rounds.service';
import { networkSettings } from '../hot-wallets/payout-settings';
import { PayoutRepository } from './payout.repository';
import { poolFor, railsFor } from '../hot-wallets/hot-wallets.module';
import { SignPayoutsUseCase } from './sign-payouts.use-case';
import { TrackPayoutsUseCase } from './track-payouts.use-case';
import { fixedScreening, listsScreening } from '../screening/screening.spec-support';
import { AddressScreening } from '../screening/address-screening';
import { FailBeforeSigning } from './fail-before-signing';
import { createWithdrawalUseCase } from '../withdrawals/create-withdrawal.spec-support';

/**
 * The payouts wired as the module wires them, for integration specs: against the local chains and the
 * test database npm test starts (CHAIN_* and HOT_WALLET_KEY_FILE in the environment). Nothing is mocked.
 */
export function payoutKit(config: WithdrawalsConfig, db: Database) {
  const unitOfWork = new UnitOfWork(db, { wake: () => undefined });
  const metrics = new PayoutMetrics();
  const rails = railsFor(config);
  const pool = poolFor(config);
  /** The pool's first wallet (the only one, unless the spec's configuration names several). */
  const signer = pool.first.signer;
  const payouts = new PayoutRepository(db);
  const hotWallets = new HotWalletRepository(db);
  const findings = new ReconciliationRepository(db);
  const recorder = new FindingRepository(db);
  const accounts = new AccountRepository(db);
  const screening = listsScreening(config, db);
  const sign = new SignPayoutsUseCase(
    config,
    unitOfWork,
    payouts,
    hotWallets,
    new FailBeforeSigning(payouts, accounts, metrics),
    metrics,
    rails,
    pool,
    screening,
  );
  const track = new TrackPayoutsUseCase(config, unitOfWork, payouts, accounts, recorder, hotWallets, metrics, rails, pool);
  const guard = new GuardWalletNonceUseCase(unitOfWork, hotWallets, recorder, metrics, rails);
  const rounds = new PayoutRoundsService(config, new PayoutRoundLeaseRepository(db), hotWallets, sign, track, guard, metrics, rails, pool);
  const reconcile = new ReconcileUseCase(config, findings, recorder, hotWallets, guard, metrics, rails);
  const settings = networkSettings(config);
  return {
    config,
    rounds,
    sign,
    rails,
    pool,
    signer,
    payouts,
    hotWallets,
    unitOfWork,
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

/** A destination nobody has paid yet. */
export const freshAddress = () => privateKeyToAccount(generatePrivateKey()).address;

/**
 * Users and withdrawals made as the service makes them (the create use case), and what the specs read back
 * of them: the row, the events in the outbox, the signed versions.
 */
export function payoutFixtures(db: Database, screening: AddressScreening = fixedScreening()) {
  const accounts = new AccountRepository(db);
  const unitOfWork = new UnitOfWork(db, { wake: () => undefined });
  const create = createWithdrawalUseCase(db, unitOfWork, screening);

  async function newAccount(micros: number): Promise<{ partnerId: PartnerId; document: string }> {
    const partnerId = testPartnerId();
    const document = newCpf();
    await accounts.open(partnerId, document, new Date());
    await unitOfWork.run((tx) =>
      accounts.credit(tx, { partnerId, idempotencyKey: newUuid(), document, micros: BigInt(micros), reference: 'test funds' }, new Date()),
    );
    return { partnerId, document };
  }

  return {
    accounts,
    unitOfWork,
    newAccount,
    /** A withdrawal of `usdtmicros` (LOW) by a new user credited for it and its fee. */
    withdraw: async (network: 'ETH' | 'MATIC', usdtmicros: number, address: `0x${string}` = freshAddress()) => {
      const { partnerId, document } = await newAccount(usdtmicros + 10_000_000);
      const reply = await create.execute({
        partner_id: partnerId,
        ...withdrawalRequest(document, { network, usdtmicros, address, fee_choice: 'LOW' }),
      });
      if (!reply.ok) throw new Error(`withdrawal refused: ${reply.error.code}`);
      return { id: reply.data.id, partnerId, document, address };
    },
    row: async (id: number) => {
      const { rows } = await db.query<{
        state: string;
        tx_hash: string;
        failure_reason: string | null;
        block_number: string | null;
        block_hash: string | null;
        gas_cost_wei: string | null;
        nonce: string | null;
        from_address: string | null;
        payout_state: string;
        payout_reason: string | null;
      }>('SELECT * FROM withdrawals WHERE id = $1', [id]);
      return rows[0];
    },
    eventStates: async (id: number) => {
      const { rows } = await db.query<{ state: string }>(
        `SELECT payload->>'state' AS state FROM outbox_messages WHERE key = $1 ORDER BY id`,
        [`usdt_withdrawal:${id}`],
      );
      return rows.map((r) => r.state);
    },
    versions: async (id: number) => {
      const { rows } = await db.query<{ tx_hash: string; nonce: string; max_fee_per_gas_wei: string; kind: string; from_address: string }>(
        'SELECT * FROM payout_transactions WHERE withdrawal_id = $1 ORDER BY id',
        [id],
      );
      return rows;
    },
  };
}
