import { PartnerRepository } from '../auth/partner.repository';
import { apiErrorOf } from '../http/api-error';

/** Fails with 404 partner_not_found unless the partner exists: operator routes name a partner in their path. */
export async function requireKnownPartner(partners: PartnerRepository, partnerId: string): Promise<void> {
  if (!(await partners.exists(partnerId))) throw apiErrorOf({ code: 'partner_not_found', message: `no partner with id ${partnerId}` });
}

