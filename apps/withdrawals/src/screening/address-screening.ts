import { Network, ScreeningList } from '@partner/contracts';

/** Why a destination is refused: the list that holds it, and the sentence the partner and the operator read. */
export interface ScreeningHit {
  list: ScreeningList;
  message: string;
}

/**
 * When a destination is screened. `request`: as the withdrawal is asked for, to refuse it at once; an answer
 * the adapter cannot get now (a node down) is skipped there, since `signing` checks again. `signing`: just
 * before the payout is signed; nothing is skipped (an adapter that cannot answer throws and the round waits).
 */
export type ScreeningMoment = 'request' | 'signing';

/**
 * The port destinations are screened through (docs/operations/screening.md). The default adapter is
 * ListsScreening (the SDN copy, the token's blacklist, the operator's deny list); an outside provider in the
 * manner of Chainalysis, TRM or Elliptic (an address in, a risk verdict out) is another adapter bound to
 * ADDRESS_SCREENING in address-screening.providers.ts, answering in the same terms.
 */
export interface AddressScreening {
  /** Its name, as GET /admin/v1/screening shows it. */
  readonly name: string;
  /** The hits among `addresses`, by address in lower case; an address not in the map is clear. */
  screen(network: Network, addresses: readonly string[], moment: ScreeningMoment): Promise<Map<string, ScreeningHit>>;
}

export const ADDRESS_SCREENING = Symbol('ADDRESS_SCREENING');
