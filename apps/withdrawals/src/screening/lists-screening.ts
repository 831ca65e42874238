import { Inject, Injectable, Logger } from '@nestjs/common';
import { Network } from '@partner/contracts';
import { inParallel } from '@partner/platform';
import { LRUCache } from 'lru-cache';
import { getAddress } from 'viem';
import { PAYOUT_RAILS, PayoutRail } from '../hot-wallets/payout-rail';
import { AddressScreening, ScreeningHit, ScreeningMoment } from './address-screening';
import { ScreeningRepository } from './screening.repository';
import { blockedBecause } from './screening-messages';

/** How long a request trusts the token's answer about an address (signing always asks the node again). */
const TOKEN_ANSWER_MS = 60_000;

/**
 * The default screening adapter: the lists the service keeps (the OFAC SDN copy, the operator's deny list), read
 * from the database on every call so that a change takes effect at once on every instance, and the token's own
 * blacklist, read from the network's node(s) (both, where two are configured: listed if either says so).
 * At a request the token's answer is kept a minute per address and a node that does not answer is passed
 * over (logged): the signing round asks again, and waits rather than sign while the node is silent.
 */
@Injectable()
export class ListsScreening implements AddressScreening {
  readonly name = 'lists';
  private readonly logger = new Logger('screening');
  private readonly tokenAnswers = new LRUCache<string, boolean>({ max: 10_000, ttl: TOKEN_ANSWER_MS });

  constructor(
    @Inject(ScreeningRepository) private readonly lists: Pick<ScreeningRepository, 'listed'>,
    @Inject(PAYOUT_RAILS) private readonly rails: Record<Network, Pick<PayoutRail, 'blacklisted'>>,
  ) {}

  async screen(network: Network, addresses: readonly string[], moment: ScreeningMoment): Promise<Map<string, ScreeningHit>> {
    const wanted = [...new Set(addresses.map((a) => a.toLowerCase()))];
    const hits = new Map<string, ScreeningHit>();
    for (const l of await this.lists.listed(wanted)) {
      if (hits.has(l.address)) continue;
      hits.set(l.address, {
        list: l.list,
        message: l.list === 'ofac_sdn' ? blockedBecause.ofac_sdn(l.address, l.publishedAt) : blockedBecause.deny_list(l.address),
      });
    }
    const onChain = wanted.filter((a) => !hits.has(a));
    await inParallel(onChain, 16, async (address) => {
      const listed = await this.blacklisted(network, address, moment);
      if (listed) hits.set(address, { list: 'token_blacklist', message: blockedBecause.token_blacklist(address, network) });
    });
    return hits;
  }

  private async blacklisted(network: Network, address: string, moment: ScreeningMoment): Promise<boolean> {
    const rail = this.rails[network];
    if (moment === 'signing') return rail.blacklisted(getAddress(address));
    const key = `${network}:${address}`;
    const known = this.tokenAnswers.get(key);
    if (known !== undefined) return known;
    try {
      const listed = await rail.blacklisted(getAddress(address));
      this.tokenAnswers.set(key, listed);
      return listed;
    } catch (error) {
      this.logger.warn(
        `the token's blacklist on ${network} could not be read for ${address} (${(error as Error).message.split('\n')[0]}): accepted for now, checked again before signing`,
      );
      return false;
    }
  }
}
