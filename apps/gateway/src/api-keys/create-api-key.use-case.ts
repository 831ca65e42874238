import { Inject, Injectable } from '@nestjs/common';
import { hashApiKey } from '../auth/api-key';
import { ApiKeyCache } from '../auth/api-key-cache';
import { environmentOf } from '@partner/operator-access';
import { PartnerRepository } from '../auth/partner.repository';
import { GatewayConfig } from '../config/gateway.config';
import { unixSeconds } from '../http/unix-seconds';
import { requireKnownPartner } from '../partners/known-partner';
import { ApiKeyRepository } from './api-key.repository';
import { AdminNewApiKey } from './api-keys.dto';

/**
 * Issues one more API key to a partner; the others stay active, so a partner rotates without downtime
 * (new key deployed, then the old one revoked). Keys belong to the gateway's environment, stored with them
 * and said by their text: `pk_live_`, or `pk_sandbox_` on a sandbox gateway (docs/adr/0019).
 */
@Injectable()
export class CreateApiKeyUseCase {
  constructor(
    @Inject(PartnerRepository) private readonly partners: Pick<PartnerRepository, 'exists'>,
    @Inject(ApiKeyRepository) private readonly keys: Pick<ApiKeyRepository, 'create'>,
    private readonly config: GatewayConfig,
    private readonly keyCache: ApiKeyCache,
  ) {}

  async execute(pathPartnerId: string): Promise<AdminNewApiKey> {
    const partnerId = await requireKnownPartner(this.partners, pathPartnerId);
    const { record, apiKey } = await this.keys.create(partnerId, environmentOf(this.config));
    this.keyCache.created(hashApiKey(apiKey));
    return { id: record.id, api_key: apiKey, prefix: record.prefix, created_at: unixSeconds(record.created_at) };
  }
}
