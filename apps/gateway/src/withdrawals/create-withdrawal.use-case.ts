import { Injectable } from '@nestjs/common';
import { CreateUsdtWithdrawalRequest, CreateWithdrawalResult, PartnerId, Topics } from '@partner/contracts';
import { MessageBus } from '@partner/kafka';
import { unwrap } from '../http/unwrap-reply';

@Injectable()
export class CreateWithdrawalUseCase {
  constructor(private readonly bus: MessageBus) {}

  /** Keyed by partner and idempotency key, so duplicates land on one partition and are handled in turn. */
  async execute(partnerId: PartnerId, request: CreateUsdtWithdrawalRequest): Promise<CreateWithdrawalResult> {
    const command = { ...request, partner_id: partnerId };
    return unwrap(await this.bus.request(Topics.WithdrawalsCreate, command, `${partnerId}:${request.idempotency_key}`));
  }
}
