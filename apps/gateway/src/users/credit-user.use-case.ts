import { Injectable } from '@nestjs/common';
import { CreditAccountResult, CreditRequest, Topics } from '@partner/contracts';
import { MessageBus } from '@partner/kafka';
import { PartnerRepository } from '../auth/partner.repository';
import { unwrap } from '../http/unwrap-reply';
import { requireKnownPartner } from '../partners/known-partner';

/**
 * Credits a user's USDT balance (withdrawals.command.credit-account.v2). The idempotency key makes it
 * safe to retry: the same key again is answered with `replayed: true` and credits nothing; with another
 * amount or reference it is idempotency_key_reused.
 */
@Injectable()
export class CreditUserUseCase {
  constructor(
    private readonly partners: PartnerRepository,
    private readonly bus: MessageBus,
  ) {}

  async execute(pathPartnerId: string, document: string, credit: CreditRequest): Promise<CreditAccountResult> {
    const partnerId = await requireKnownPartner(this.partners, pathPartnerId);
    const { usdt_micros, idempotency_key, reference } = credit;
    const reply = await this.bus.request(Topics.WithdrawalsCreditAccount, {
      partner_id: partnerId,
      document,
      usdt_micros,
      idempotency_key,
      reference,
    });
    return unwrap(reply);
  }
}
