import { authenticatedPartnerId, PartnerId } from '@partner/contracts';
import { PartnerRepository } from '../auth/partner.repository';
import { apiErrorOf } from '../http/api-error';

/**
 * Fails with 404 partner_not_found unless the partner exists: operator routes name a partner in their path.
 * The operator's admin key authenticated the request, and may act on any partner; so a path id that names
 * an existing partner is vouched for, and this check is where an operator route's PartnerId is made.
 */
export async function requireKnownPartner(partners: Pick<PartnerRepository, 'exists'>, partnerId: string): Promise<PartnerId> {
  if (!(await partners.exists(partnerId))) throw apiErrorOf({ code: 'partner_not_found', message: `no partner with id ${partnerId}` });
  return authenticatedPartnerId(partnerId);
}
