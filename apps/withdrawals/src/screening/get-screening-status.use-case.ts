import { Inject, Injectable } from '@nestjs/common';
import { NETWORKS, ScreeningStatus } from '@partner/contracts';
import { PAYOUT_RAILS, PayoutRails } from '../hot-wallets/payout-rail';
import { ADDRESS_SCREENING, AddressScreening } from './address-screening';
import { ScreeningRepository } from './screening.repository';

const seconds = (d: Date | null): number | null => (d === null ? null : Math.floor(d.getTime() / 1000));

/** GET /admin/v1/screening: the adapter, and each list with its source (the SDN copy with its dates). */
@Injectable()
export class GetScreeningStatusUseCase {
  constructor(
    private readonly lists: ScreeningRepository,
    @Inject(ADDRESS_SCREENING) private readonly screening: AddressScreening,
    @Inject(PAYOUT_RAILS) private readonly rails: PayoutRails,
  ) {}

  async execute(): Promise<ScreeningStatus> {
    const [copies, denied] = await Promise.all([this.lists.copies(), this.lists.count('deny_list')]);
    const sdn = copies.find((c) => c.list === 'ofac_sdn');
    const networks = [...NETWORKS];
    return {
      provider: this.screening.name,
      lists: [
        {
          list: 'ofac_sdn',
          source: sdn?.source ?? 'no copy loaded',
          published_at: seconds(sdn?.publishedAt ?? null),
          loaded_at: seconds(sdn?.loadedAt ?? null),
          loaded_by: sdn?.loadedBy ?? null,
          addresses: sdn?.addresses ?? 0,
          networks,
        },
        {
          list: 'token_blacklist',
          source: `isBlackListed of the USDT contract, read from the node(s): ${networks.map((n) => `${n} ${this.rails[n].token}`).join(', ')}`,
          published_at: null,
          loaded_at: null,
          loaded_by: null,
          addresses: null,
          networks,
        },
        {
          list: 'deny_list',
          source: "the operator's (/admin/v1/screening/deny-list)",
          published_at: null,
          loaded_at: null,
          loaded_by: null,
          addresses: denied,
          networks,
        },
      ],
    };
  }
}
