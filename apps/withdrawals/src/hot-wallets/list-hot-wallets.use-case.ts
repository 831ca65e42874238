import { Inject, Injectable } from '@nestjs/common';
import { HotWalletView, ListHotWalletsResult, NETWORKS } from '@partner/contracts';
import { WithdrawalsConfig } from '../config/withdrawals.config';
import { HOT_WALLET_POOL, HotWalletPool } from './hot-wallet-pool';
import { networkSettings } from './payout-settings';
import { Address, PAYOUT_RAILS, PayoutRails } from './payout-rail';
import { HotWallet, HotWalletRepository } from './hot-wallet.repository';
import { laneState } from './lane-state';

const seconds = (d: Date): number => Math.floor(d.getTime() / 1000);

/**
 * The operator's view of the pool: one entry per wallet and network (a lane), configured or only known to
 * the books: balances read off the chain now, the books' nonce, what is in flight, its state and why; and
 * the withdrawals waiting aside because no wallet can pay them now.
 */
@Injectable()
export class ListHotWalletsUseCase {
  constructor(
    private readonly config: WithdrawalsConfig,
    private readonly hotWallets: HotWalletRepository,
    @Inject(PAYOUT_RAILS) private readonly rails: PayoutRails,
    @Inject(HOT_WALLET_POOL) private readonly pool: HotWalletPool,
  ) {}

  async execute(): Promise<ListHotWalletsResult> {
    const settings = networkSettings(this.config);
    const [pending, inFlight, known, aside] = await Promise.all([
      this.hotWallets.pendingByNetwork(),
      this.hotWallets.inFlight(),
      this.hotWallets.list(),
      this.hotWallets.aside(),
    ]);
    // The configured wallets first (in the configuration's order), then any other the books know.
    const lanes: { network: (typeof NETWORKS)[number]; address: string; row: HotWallet | undefined }[] = [];
    for (const network of NETWORKS) {
      const rows = known.filter((w) => w.network === network);
      for (const w of this.pool.wallets)
        lanes.push({ network, address: w.address, row: rows.find((r) => r.address === w.address.toLowerCase()) });
      for (const r of rows) if (!this.pool.signerOf(r.address)) lanes.push({ network, address: r.address, row: r });
    }
    const hot_wallets = await Promise.all(
      lanes.map(async ({ network, address, row }): Promise<HotWalletView> => {
        const balances = await this.rails[network].balances(address as Address).catch(() => null);
        const view = laneState(row, { configured: this.pool.signerOf(address) !== undefined, retired: this.pool.isRetired(address) });
        return {
          network,
          chain_id: settings[network].chainId,
          address,
          token_contract: settings[network].token,
          usdt_micros: balances ? Number(balances.usdtMicros) : null,
          native_wei: balances ? balances.nativeWei.toString() : null,
          pending: pending.get(network) ?? 0,
          in_flight: inFlight.get(`${network}:${address.toLowerCase()}`)?.inFlight ?? 0,
          next_nonce: row ? Number(row.nextNonce) : 0,
          ...view,
          stopped_by: row?.stopped?.findingId ?? null,
          stopped_reason: row?.stopped?.detail ?? null,
        };
      }),
    );
    return {
      hot_wallets,
      aside: aside.map((a) => ({
        network: a.network,
        reason: a.reason,
        count: a.count,
        usdt_micros: Number(a.micros),
        since: seconds(a.since),
      })),
    };
  }
}
