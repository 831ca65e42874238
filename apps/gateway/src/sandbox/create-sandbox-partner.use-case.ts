import { Injectable } from '@nestjs/common';
import { CreateApiKeyUseCase } from '../api-keys/create-api-key.use-case';
import { CreatePartnerUseCase } from '../partners/create-partner.use-case';
import { CreatePartnerRequest, CreatePartnerResponse } from './sandbox.dto';

/** The sandbox's one-call partner: the operator API's partner creation, then its first key. */
@Injectable()
export class CreateSandboxPartnerUseCase {
  constructor(
    private readonly createPartner: CreatePartnerUseCase,
    private readonly createApiKey: CreateApiKeyUseCase,
  ) {}

  async execute(request: CreatePartnerRequest): Promise<CreatePartnerResponse> {
    const partner = await this.createPartner.execute({ ...request, name: request.name ?? 'sandbox partner' });
    const { api_key } = await this.createApiKey.execute(partner.id);
    return { id: partner.id, name: partner.name, api_key };
  }
}
