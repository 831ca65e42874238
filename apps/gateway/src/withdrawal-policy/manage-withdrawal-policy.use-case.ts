import { Injectable } from '@nestjs/common';
import { Topics, WithdrawalPolicyRequest, WithdrawalPolicyView } from '@partner/contracts';
import { MessageBus } from '@partner/kafka';
import { PartnerRepository } from '../auth/partner.repository';
import { unwrap } from '../http/unwrap-reply';
import { requireKnownPartner } from '../partners/known-partner';

/** A partner's withdrawal policy (beneficiary required, saved addresses only, their cool-down), kept by the withdrawals service. */
@Injectable()
export class ManageWithdrawalPolicyUseCase {
  constructor(
    private readonly partners: PartnerRepository,
    private readonly bus: MessageBus,
  ) {}

  async get(pathPartnerId: string): Promise<WithdrawalPolicyView> {
    const partner_id = await requireKnownPartner(this.partners, pathPartnerId);
    return unwrap(await this.bus.request(Topics.WithdrawalsPolicy, { partner_id }));
  }

  async set(pathPartnerId: string, body: WithdrawalPolicyRequest, by: string): Promise<WithdrawalPolicyView> {
    const partner_id = await requireKnownPartner(this.partners, pathPartnerId);
    return unwrap(await this.bus.request(Topics.WithdrawalsSetPolicy, { ...body, partner_id, by, asked_at: new Date().toISOString() }));
  }
}
