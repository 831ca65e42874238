import { Injectable } from '@nestjs/common';
import { AccountBalance, Topics } from '@partner/contracts';
import { MessageBus } from '@partner/kafka';
import { PartnerRepository } from '../auth/partner.repository';
import { unwrap } from '../http/unwrap-reply';
import { requireKnownPartner } from '../partners/known-partner';

/** A user's USDT balance, available and held (withdrawals.query.get-balance.v1). */
@Injectable()
export class GetUserBalanceUseCase {
  constructor(
    private readonly partners: PartnerRepository,
    private readonly bus: MessageBus,
  ) {}

  async execute(pathPartnerId: string, document: string): Promise<AccountBalance> {
    const partnerId = await requireKnownPartner(this.partners, pathPartnerId);
    const { available_usdt_micros, held_usdt_micros } = unwrap(
      await this.bus.request(Topics.WithdrawalsGetBalance, { partner_id: partnerId, document }),
    );
    return { available_usdt_micros, held_usdt_micros };
  }
}
