import { Injectable } from '@nestjs/common';
import { BrlLedgerPage, LedgerPage, ListUsersResult, OperatorPageRequest, Topics } from '@partner/contracts';
import { MessageBus } from '@partner/kafka';
import { PartnerRepository } from '../auth/partner.repository';
import { unwrap } from '../http/unwrap-reply';
import { requireKnownPartner } from '../partners/known-partner';

/**
 * The operator's reads of a partner's users and of a user's ledgers: the USDT ones kept by the withdrawals
 * service (withdrawals.query.list-users.v1, withdrawals.query.ledger.v1), the BRL one by inflows
 * (inflows.query.brl-ledger.v1). The partner is checked here first, so an unknown one is partner_not_found
 * rather than an empty page.
 */
@Injectable()
export class ReadUserBooksUseCase {
  constructor(
    private readonly partners: PartnerRepository,
    private readonly bus: MessageBus,
  ) {}

  async users(pathPartnerId: string, page: OperatorPageRequest): Promise<ListUsersResult> {
    const partnerId = await requireKnownPartner(this.partners, pathPartnerId);
    return unwrap(await this.bus.request(Topics.WithdrawalsListUsers, { partner_id: partnerId, ...page }));
  }

  async ledger(pathPartnerId: string, document: string, page: OperatorPageRequest): Promise<LedgerPage> {
    const partnerId = await requireKnownPartner(this.partners, pathPartnerId);
    return unwrap(await this.bus.request(Topics.WithdrawalsLedger, { partner_id: partnerId, document, ...page }));
  }

  async brlLedger(pathPartnerId: string, document: string, page: OperatorPageRequest): Promise<BrlLedgerPage> {
    const partnerId = await requireKnownPartner(this.partners, pathPartnerId);
    return unwrap(await this.bus.request(Topics.InflowsLedger, { partner_id: partnerId, document, ...page }));
  }
}
