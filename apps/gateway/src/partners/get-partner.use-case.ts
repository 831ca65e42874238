import { Injectable } from '@nestjs/common';
import { PartnerRepository } from '../auth/partner.repository';
import { apiErrorOf } from '../http/api-error';
import { requireKnownPartner } from './known-partner';
import { toPartnerDetail } from './partner-view';
import { AdminPartnerDetail } from './partners.dto';

/** One partner as operators see it: status, active keys, limits. */
@Injectable()
export class GetPartnerUseCase {
  constructor(private readonly partners: PartnerRepository) {}

  async execute(pathPartnerId: string): Promise<AdminPartnerDetail> {
    const partnerId = await requireKnownPartner(this.partners, pathPartnerId);
    const record = await this.partners.find(partnerId);
    if (!record) throw apiErrorOf({ code: 'partner_not_found', message: `no partner with id ${partnerId}` });
    return toPartnerDetail(record);
  }
}
