import { Inject, Injectable } from '@nestjs/common';
import { Topics } from '@partner/contracts';
import { outboxMessage, UnitOfWork } from '@partner/db';
import { ApiKeyCache } from '../auth/api-key-cache';
import { PartnerRepository } from '../auth/partner.repository';
import { apiErrorOf } from '../http/api-error';
import { requireKnownPartner } from '../partners/known-partner';
import { toApiKeyView } from './api-key-view';
import { ApiKeyRepository } from './api-key.repository';
import { AdminApiKeyView } from './api-keys.dto';

/**
 * Revokes a partner's API key. The revocation and its event (gateway.event.api-key-revoked.v1) commit in
 * one transaction through the gateway's outbox, so every gateway instance hears of it (each forgets the
 * key at once, ApiKeyRevocationsListener) even if this one stops right after COMMIT; this instance
 * forgets it directly too. Revoking a revoked key changes nothing and answers it again (idempotent).
 */
@Injectable()
export class RevokeApiKeyUseCase {
  constructor(
    @Inject(PartnerRepository) private readonly partners: Pick<PartnerRepository, 'exists'>,
    @Inject(ApiKeyRepository) private readonly keys: Pick<ApiKeyRepository, 'revoke' | 'findById'>,
    @Inject(UnitOfWork) private readonly unitOfWork: Pick<UnitOfWork, 'run'>,
    private readonly keyCache: ApiKeyCache,
  ) {}

  async execute(pathPartnerId: string, keyId: string): Promise<AdminApiKeyView> {
    const partnerId = await requireKnownPartner(this.partners, pathPartnerId);
    const key = await this.unitOfWork.run(async (tx) => {
      const revoked = await this.keys.revoke(tx, partnerId, keyId);
      if (!revoked) return this.keys.findById(tx, partnerId, keyId);
      const revokedAt = (revoked.revoked_at as Date).toISOString();
      tx.emit(outboxMessage(Topics.GatewayApiKeyRevoked, { partner_id: partnerId, key_id: keyId, revoked_at: revokedAt }));
      return revoked;
    });
    if (!key) throw apiErrorOf({ code: 'not_found', message: `partner ${partnerId} has no API key ${keyId}` });
    this.keyCache.forget(keyId);
    return toApiKeyView(key);
  }
}
