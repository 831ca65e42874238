import { Injectable } from '@nestjs/common';
import { LimitsView, PartnerLimitsRequest, Topics, UserLimitsRequest } from '@partner/contracts';
import { MessageBus } from '@partner/kafka';
import { PartnerRepository } from '../auth/partner.repository';
import { unwrap } from '../http/unwrap-reply';
import { requireKnownPartner } from '../partners/known-partner';

/** The operator's withdrawal limits of a partner and of one of its users, kept by the withdrawals service. */
@Injectable()
export class ManageLimitsUseCase {
  constructor(
    private readonly partners: PartnerRepository,
    private readonly bus: MessageBus,
  ) {}

  async partnerLimits(pathPartnerId: string): Promise<LimitsView> {
    const partner_id = await requireKnownPartner(this.partners, pathPartnerId);
    return unwrap(await this.bus.request(Topics.WithdrawalsPartnerLimits, { partner_id }));
  }

  async setPartnerLimits(pathPartnerId: string, body: PartnerLimitsRequest, by: string): Promise<LimitsView> {
    const partner_id = await requireKnownPartner(this.partners, pathPartnerId);
    return unwrap(await this.bus.request(Topics.WithdrawalsSetLimits, { ...body, partner_id, by, asked_at: new Date().toISOString() }));
  }

  async setUserLimits(pathPartnerId: string, document: string, body: UserLimitsRequest, by: string): Promise<LimitsView> {
    const partner_id = await requireKnownPartner(this.partners, pathPartnerId);
    return unwrap(
      await this.bus.request(Topics.WithdrawalsSetLimits, { ...body, partner_id, document, by, asked_at: new Date().toISOString() }),
    );
  }
}
