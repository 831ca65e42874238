import { Database } from '@partner/db';
import { WithdrawalsConfig } from '../config/withdrawals.config';
import { railsFor } from '../hot-wallets/hot-wallets.module';
import { AddressScreening, ScreeningHit } from './address-screening';
import { ListsScreening } from './lists-screening';
import { ScreeningRepository } from './screening.repository';

/** The default adapter as the module wires it: the test database's lists, the local chains' token. */
export const listsScreening = (config: WithdrawalsConfig, db: Database) =>
  new ListsScreening(new ScreeningRepository(db), railsFor(config));

/** For unit specs: a screening that lists the given addresses (lower case) and clears every other. */
export const fixedScreening = (listed: Record<string, ScreeningHit> = {}): AddressScreening => ({
  name: 'fixed',
  screen: async (_network, addresses) =>
    new Map(addresses.map((a) => a.toLowerCase()).flatMap((a) => (listed[a] ? [[a, listed[a]] as const] : []))),
});
