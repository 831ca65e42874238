import { Injectable } from '@nestjs/common';
import { PartnerRepository } from '../auth/partner.repository';
import { unixSeconds } from '../http/unix-seconds';
import { AdminPartnerRequest, AdminPartnerView } from './partners.dto';

/** Creates a partner, without a key (CreateApiKeyUseCase issues those: several may be active, for rotation). */
@Injectable()
export class CreatePartnerUseCase {
  constructor(private readonly partners: PartnerRepository) {}

  async execute(request: AdminPartnerRequest): Promise<AdminPartnerView> {
    const partner = await this.partners.create(request.name, {
      rateLimitPerSecond: request.rate_limit_per_second,
      rateLimitBurst: request.rate_limit_burst,
    });
    return { id: partner.id, name: partner.name, created_at: unixSeconds(partner.createdAt) };
  }
}
