import { Module } from '@nestjs/common';
import { Network, NETWORKS } from '@partner/contracts';
import { Database } from '@partner/db';
import { AccountsModule } from '../accounts/accounts.module';
import { WithdrawalsConfig } from '../config/withdrawals.config';
import { HotWalletRepository } from '../hot-wallets/hot-wallet.repository';
import { ReconciliationRepository } from '../reconciliation/reconciliation.repository';
import { ConfirmingRail } from './confirming-rail';
import { EvmPayoutRail } from './evm-payout-rail';
import { GuardWalletNonceUseCase } from './guard-wallet-nonce.use-case';
import { PayoutMetrics } from './payout-metrics';
import { PAYOUT_RAILS, PAYOUT_SIGNER, PayoutRails, PayoutSigner } from './payout-rail';
import { PayoutRoundLeaseRepository } from './payout-round-lease.repository';
import { PayoutRoundsService } from './payout-rounds.service';
import { networkSettings } from './payout-settings';
import { KeyFileSigner, RemoteSigner } from './payout-signers';
import { PayoutRepository } from './payout.repository';
import { SignPayoutsUseCase } from './sign-payouts.use-case';
import { TrackPayoutsUseCase } from './track-payouts.use-case';
import { refuseWellKnownWallet } from './well-known-wallets';

/** A rail per network, to the node the configuration names, or to both nodes where it names two. */
export function railsFor(config: WithdrawalsConfig): PayoutRails {
  const settings = networkSettings(config);
  const rail = (n: Network, rpcUrl: string) =>
    new EvmPayoutRail({
      network: n,
      rpcUrl,
      token: settings[n].token,
      finality: settings[n].finality,
      maxHeadAgeS: settings[n].maxHeadAgeS,
      minPriorityFeeWei: settings[n].minPriorityFeeWei,
      timeoutMs: config.CHAIN_RPC_TIMEOUT_MS,
    });
  return Object.fromEntries(
    NETWORKS.map((n) => {
      const first = rail(n, settings[n].rpcUrl);
      const second = settings[n].rpcUrl2;
      return [n, second ? new ConfirmingRail(first, rail(n, second)) : first];
    }),
  ) as unknown as PayoutRails;
}

/** The hot wallet's signer the configuration names (HOT_WALLET_SIGNER). */
export function signerFor(config: WithdrawalsConfig): PayoutSigner {
  // The configuration's validation requires the fields of the chosen signer: both are set here.
  const { HOT_WALLET_SIGNER, REMOTE_SIGNER_URL = '', REMOTE_SIGNER_ADDRESS = '0x', HOT_WALLET_KEY_FILE = '' } = config;
  // A network's own signer URL, where one is given, for that network's chain id.
  const byChainId: Record<number, string> = {};
  if (config.REMOTE_SIGNER_URL_ETH) byChainId[config.CHAIN_ID_ETH] = config.REMOTE_SIGNER_URL_ETH;
  if (config.REMOTE_SIGNER_URL_MATIC) byChainId[config.CHAIN_ID_MATIC] = config.REMOTE_SIGNER_URL_MATIC;
  const production = config.NODE_ENV === 'production';
  const signer =
    HOT_WALLET_SIGNER === 'remote'
      ? new RemoteSigner(REMOTE_SIGNER_URL, REMOTE_SIGNER_ADDRESS as `0x${string}`, config.CHAIN_RPC_TIMEOUT_MS, byChainId)
      : new KeyFileSigner(HOT_WALLET_KEY_FILE, { privateFileOnly: production });
  if (production) refuseWellKnownWallet(signer.address, HOT_WALLET_SIGNER === 'remote' ? 'REMOTE_SIGNER_ADDRESS' : 'HOT_WALLET_KEY_FILE');
  return signer;
}

const rails = { provide: PAYOUT_RAILS, inject: [WithdrawalsConfig], useFactory: railsFor };
const signer = { provide: PAYOUT_SIGNER, inject: [WithdrawalsConfig], useFactory: signerFor };
const leases = {
  provide: PayoutRoundLeaseRepository,
  inject: [Database],
  useFactory: (db: Database) => new PayoutRoundLeaseRepository(db),
};

/** What the chain views (hot wallets, reconciliation, the findings' workflow) use too. */
const shared = [rails, signer, PayoutMetrics, PayoutRepository, HotWalletRepository, ReconciliationRepository, GuardWalletNonceUseCase];

/** Real USDT payouts: a rail per network (viem over JSON-RPC), the hot wallet's signer, and the rounds that pay. */
@Module({
  imports: [AccountsModule],
  providers: [...shared, leases, SignPayoutsUseCase, TrackPayoutsUseCase, PayoutRoundsService],
  exports: [...shared, AccountsModule],
})
export class PayoutsModule {}
