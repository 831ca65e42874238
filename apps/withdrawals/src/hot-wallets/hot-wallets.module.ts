import { Module } from '@nestjs/common';
import { Network, NETWORKS } from '@partner/contracts';
import { WithdrawalsConfig } from '../config/withdrawals.config';
import { ConfirmingRail } from './confirming-rail';
import { EvmPayoutRail } from './evm-payout-rail';
import { HOT_WALLET_POOL, HotWalletPool, listOf } from './hot-wallet-pool';
import { HotWalletRepository } from './hot-wallet.repository';
import { HotWalletsHandler } from './hot-wallets.handler';
import { ListHotWalletsUseCase } from './list-hot-wallets.use-case';
import { Address, PAYOUT_RAILS, PayoutRails, PayoutSigner } from './payout-rail';
import { networkSettings } from './payout-settings';
import { KeyFileSigner, RemoteSigner } from './payout-signers';
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

/** The pool of hot wallets the configuration names (HOT_WALLET_SIGNER, one key file or account per wallet). */
export function poolFor(config: WithdrawalsConfig): HotWalletPool {
  // The configuration's validation requires the fields of the chosen signer: both are set here.
  const { HOT_WALLET_SIGNER, REMOTE_SIGNER_URL = '' } = config;
  // A network's own signer URL, where one is given, for that network's chain id.
  const byChainId: Record<number, string> = {};
  if (config.REMOTE_SIGNER_URL_ETH) byChainId[config.CHAIN_ID_ETH] = config.REMOTE_SIGNER_URL_ETH;
  if (config.REMOTE_SIGNER_URL_MATIC) byChainId[config.CHAIN_ID_MATIC] = config.REMOTE_SIGNER_URL_MATIC;
  const production = config.NODE_ENV === 'production';
  const signers: PayoutSigner[] =
    HOT_WALLET_SIGNER === 'remote'
      ? listOf(config.REMOTE_SIGNER_ADDRESS).map(
          (address) => new RemoteSigner(REMOTE_SIGNER_URL, address as Address, config.CHAIN_RPC_TIMEOUT_MS, byChainId),
        )
      : listOf(config.HOT_WALLET_KEY_FILE).map((file) => new KeyFileSigner(file, { privateFileOnly: production }));
  if (production)
    for (const s of signers)
      refuseWellKnownWallet(s.address, HOT_WALLET_SIGNER === 'remote' ? 'REMOTE_SIGNER_ADDRESS' : 'HOT_WALLET_KEY_FILE');
  const retired = new Set(listOf(config.HOT_WALLETS_RETIRED).map((a) => a.toLowerCase()));
  return new HotWalletPool(
    signers.map((signer) => ({ address: signer.address, signer, retired: retired.has(signer.address.toLowerCase()) })),
  );
}

const rails = { provide: PAYOUT_RAILS, inject: [WithdrawalsConfig], useFactory: railsFor };
const pool = { provide: HOT_WALLET_POOL, inject: [WithdrawalsConfig], useFactory: poolFor };

/** What the payouts, the reconciliation, the withdrawals and the screening use of the wallets. */
const shared = [rails, pool, HotWalletRepository];

/**
 * The hot wallets and how they reach the chain: a rail per network (viem over JSON-RPC), the pool of
 * wallets and their signers, the books' wallets (their nonces and stops), and the operator's list of them.
 * The lowest of the chain folders: payouts/ and reconciliation/ build on it, it imports neither.
 */
@Module({
  controllers: [HotWalletsHandler],
  providers: [...shared, ListHotWalletsUseCase],
  exports: shared,
})
export class HotWalletsModule {}
