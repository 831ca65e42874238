import { Injectable } from '@nestjs/common';
import { PartnerStatus, Topics } from '@partner/contracts';
import { outboxMessage, UnitOfWork } from '@partner/db';
import { ApiKeyCache } from '../auth/api-key-cache';
import { PartnerRepository } from '../auth/partner.repository';
import { GetPartnerUseCase } from './get-partner.use-case';
import { requireKnownPartner } from './known-partner';
import { AdminPartnerDetail } from './partners.dto';

/**
 * Disables a partner (every one of its API keys answers 403 partner_disabled; its data stays) or enables it
 * again (the same keys work). The change and its gateway.event.partner-status-changed.v1 commit in one
 * transaction through the gateway's outbox, so every gateway instance forgets the partner's cached keys
 * within about a second (ApiKeyRevocationsListener), the way a key revocation reaches them; this instance
 * forgets them directly too. Asking for the status the partner already has writes and emits nothing.
 */
@Injectable()
export class ChangePartnerStatusUseCase {
  constructor(
    private readonly partners: PartnerRepository,
    private readonly unitOfWork: UnitOfWork,
    private readonly keyCache: ApiKeyCache,
    private readonly getPartner: GetPartnerUseCase,
  ) {}

  async execute(pathPartnerId: string, status: PartnerStatus): Promise<AdminPartnerDetail> {
    const partnerId = await requireKnownPartner(this.partners, pathPartnerId);
    await this.unitOfWork.run(async (tx) => {
      const changed = await this.partners.setDisabled(tx, partnerId, status === 'disabled');
      if (changed)
        tx.emit(
          outboxMessage(Topics.GatewayPartnerStatusChanged, { partner_id: partnerId, status, changed_at: changed.changedAt.toISOString() }),
        );
    });
    this.keyCache.forgetPartner(partnerId);
    return this.getPartner.execute(partnerId);
  }
}
