import { Injectable } from '@nestjs/common';
import { CreditAccountResult, SandboxUserRequest, Topics } from '@partner/contracts';
import { MessageBus } from '@partner/kafka';
import { PartnerRepository } from '../auth/partner.repository';
import { unwrap } from '../http/unwrap-reply';

@Injectable()
export class CreatePartnerUseCase {
  constructor(private readonly partners: PartnerRepository) {}

  async execute(name = 'sandbox partner'): Promise<{ id: string; name: string; api_key: string }> {
    const { partner, apiKey } = await this.partners.create(name);
    return { id: partner.id, name: partner.name, api_key: apiKey };
  }
}

/**
 * Creates or credits a sandbox user. It answers after the owning service committed, so the user is
 * usable at once (read-your-writes). Services that keep users of their own join this fan-out.
 */
@Injectable()
export class UpsertSandboxUserUseCase {
  constructor(private readonly bus: MessageBus) {}

  async execute(partnerId: string, request: SandboxUserRequest): Promise<CreditAccountResult> {
    const command = { ...request, partner_id: partnerId };
    return unwrap(await this.bus.request(Topics.WithdrawalsCreditAccount, command, `${partnerId}:${request.document}`));
  }
}
