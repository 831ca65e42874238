import { Injectable } from '@nestjs/common';
import { PartnerRepository } from '../auth/partner.repository';
import { requireKnownPartner } from '../partners/known-partner';
import { toApiKeyView } from './api-key-view';
import { ApiKeyRepository } from './api-key.repository';
import { AdminApiKeyList } from './api-keys.dto';

@Injectable()
export class ListApiKeysUseCase {
  constructor(
    private readonly partners: PartnerRepository,
    private readonly keys: ApiKeyRepository,
  ) {}

  async execute(pathPartnerId: string): Promise<AdminApiKeyList> {
    const partnerId = await requireKnownPartner(this.partners, pathPartnerId);
    return { api_keys: (await this.keys.listByPartner(partnerId)).map(toApiKeyView) };
  }
}
