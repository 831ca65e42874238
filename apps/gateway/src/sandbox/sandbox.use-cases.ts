import { Injectable } from '@nestjs/common';
import { CreditAccountResult, SandboxUserRequest, Topics } from '@partner/contracts';
import { MessageBus } from '@partner/kafka';
import { PartnerRepository } from '../auth/partner.repository';
import { unwrap } from '../http/unwrap-reply';
import { CreatePartnerRequest } from './sandbox.dto';

@Injectable()
export class CreatePartnerUseCase {
  constructor(private readonly partners: PartnerRepository) {}

  async execute(request: CreatePartnerRequest): Promise<{ id: string; name: string; api_key: string }> {
    const { partner, apiKey } = await this.partners.create(request.name ?? 'sandbox partner', {
      rateLimitPerSecond: request.rate_limit_per_second,
      rateLimitBurst: request.rate_limit_burst,
    });
    return { id: partner.id, name: partner.name, api_key: apiKey };
  }
}

/**
 * Creates or credits a sandbox user in every service that keeps users of its own (withdrawals: the USDT
 * balance; pix-keys and inflows: who may own a key or receive a Pix). It answers after all of them
 * committed, so the user is usable everywhere at once (read-your-writes). Each call is idempotent, so a
 * retry after a partial failure completes the fan-out.
 */
@Injectable()
export class UpsertSandboxUserUseCase {
  constructor(private readonly bus: MessageBus) {}

  async execute(partnerId: string, request: SandboxUserRequest): Promise<CreditAccountResult> {
    const key = `${partnerId}:${request.document}`;
    const user = { partner_id: partnerId, document: request.document };
    const [credit, pixKeys, inflows] = await Promise.all([
      this.bus.request(Topics.WithdrawalsCreditAccount, { ...request, partner_id: partnerId }, key),
      this.bus.request(Topics.PixKeysUpsertUser, user, key),
      this.bus.request(Topics.InflowsUpsertUser, user, key),
    ]);
    unwrap(pixKeys);
    unwrap(inflows);
    return unwrap(credit);
  }
}
