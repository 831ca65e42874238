import { ADDRESS_SCREENING } from './address-screening';
import { ListsScreening } from './lists-screening';
import { ScreeningRepository } from './screening.repository';

/**
 * The screening port and its adapter. Provided by the payouts module (the adapter reads the token's blacklist
 * through its rails, and its signing round screens again); another adapter is bound here.
 */
export const ADDRESS_SCREENING_PROVIDERS = [
  ScreeningRepository,
  ListsScreening,
  { provide: ADDRESS_SCREENING, useExisting: ListsScreening },
];
