import { Injectable } from '@nestjs/common';
import { UserBalances } from '@partner/contracts';
import { MessageBus } from '@partner/kafka';
import { PartnerRepository } from '../auth/partner.repository';
import { requireKnownPartner } from '../partners/known-partner';
import { readUserBalances } from './user-balances';

/** A user's balances for the operator: USDT available and held (withdrawals), BRL available (inflows). */
@Injectable()
export class GetUserBalanceUseCase {
  constructor(
    private readonly partners: PartnerRepository,
    private readonly bus: MessageBus,
  ) {}

  async execute(pathPartnerId: string, document: string): Promise<UserBalances> {
    const partnerId = await requireKnownPartner(this.partners, pathPartnerId);
    return readUserBalances(this.bus, partnerId, document);
  }
}
