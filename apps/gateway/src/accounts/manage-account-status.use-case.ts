import { Injectable } from '@nestjs/common';
import { AccountStatusView, SetAccountStatusRequest, Topics } from '@partner/contracts';
import { MessageBus } from '@partner/kafka';
import { PartnerRepository } from '../auth/partner.repository';
import { unwrap } from '../http/unwrap-reply';
import { requireKnownPartner } from '../partners/known-partner';

/** The operator blocks, unblocks or closes a user's payment account, kept by the inflows service. */
@Injectable()
export class ManageAccountStatusUseCase {
  constructor(
    private readonly partners: PartnerRepository,
    private readonly bus: MessageBus,
  ) {}

  async execute(pathPartnerId: string, document: string, body: SetAccountStatusRequest, by: string): Promise<AccountStatusView> {
    const partner_id = await requireKnownPartner(this.partners, pathPartnerId);
    return unwrap(
      await this.bus.request(Topics.InflowsSetAccountStatus, { ...body, partner_id, document, by, asked_at: new Date().toISOString() }),
    );
  }
}
