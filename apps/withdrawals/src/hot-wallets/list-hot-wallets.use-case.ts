import { Inject, Injectable } from '@nestjs/common';
import { HotWalletView, ListHotWalletsResult, NETWORKS } from '@partner/contracts';
import { WithdrawalsConfig } from '../config/withdrawals.config';
import { networkSettings } from '../payouts/payout-settings';
import { PAYOUT_RAILS, PAYOUT_SIGNER, PayoutRails, PayoutSigner } from '../payouts/payout-rail';
import { HotWalletRepository } from './hot-wallet.repository';

/** The operator's view of each network's hot wallet: balances read off the chain now, the books' nonce, pending count and whether it signs. */
@Injectable()
export class ListHotWalletsUseCase {
  constructor(
    private readonly config: WithdrawalsConfig,
    private readonly hotWallets: HotWalletRepository,
    @Inject(PAYOUT_RAILS) private readonly rails: PayoutRails,
    @Inject(PAYOUT_SIGNER) private readonly signer: PayoutSigner,
  ) {}

  async execute(): Promise<ListHotWalletsResult> {
    const settings = networkSettings(this.config);
    const pending = await this.hotWallets.pendingByNetwork();
    const hot_wallets = await Promise.all(
      NETWORKS.map(async (network): Promise<HotWalletView> => {
        const [wallet, balances] = await Promise.all([
          this.hotWallets.find(network, this.signer.address),
          this.rails[network].balances(this.signer.address).catch(() => null),
        ]);
        return {
          network,
          chain_id: settings[network].chainId,
          address: this.signer.address,
          token_contract: settings[network].token,
          usdt_micros: balances ? Number(balances.usdtMicros) : null,
          native_wei: balances ? balances.nativeWei.toString() : null,
          pending: pending.get(network) ?? 0,
          next_nonce: wallet ? Number(wallet.nextNonce) : 0,
          state: wallet?.stopped ? 'stopped' : 'signing',
          stopped_by: wallet?.stopped?.findingId ?? null,
          stopped_reason: wallet?.stopped?.detail ?? null,
        };
      }),
    );
    return { hot_wallets };
  }
}
