import { Injectable } from '@nestjs/common';
import {
  DenyListAddRequest,
  DenyListAddResult,
  DenyListEntryView,
  DenyListPage,
  DenyListPageRequest,
  ReplaceSdnListRequest,
  ReplaceSdnListResult,
  ScreeningStatus,
  Topics,
} from '@partner/contracts';
import { MessageBus } from '@partner/kafka';
import { unwrap } from '../http/unwrap-reply';

/** The screening of destinations, kept by the withdrawals service: the lists' state, the SDN copy, the deny list. */
@Injectable()
export class ManageScreeningUseCase {
  constructor(private readonly bus: MessageBus) {}

  async status(): Promise<ScreeningStatus> {
    return unwrap(await this.bus.request(Topics.WithdrawalsScreeningStatus, { asked_at: new Date().toISOString() }));
  }

  /** Loads a new SDN copy, recorded as loaded `by` the operator key. */
  async replaceSdn(body: ReplaceSdnListRequest, by: string): Promise<ReplaceSdnListResult> {
    return unwrap(await this.bus.request(Topics.WithdrawalsReplaceSdnList, { ...body, by, asked_at: new Date().toISOString() }));
  }

  async denyList(page: DenyListPageRequest): Promise<DenyListPage> {
    return unwrap(await this.bus.request(Topics.WithdrawalsDenyList, { ...page, asked_at: new Date().toISOString() }));
  }

  async deny(body: DenyListAddRequest, by: string): Promise<DenyListAddResult> {
    return unwrap(await this.bus.request(Topics.WithdrawalsDenyListAdd, { ...body, by, asked_at: new Date().toISOString() }));
  }

  async undeny(address: string, by: string): Promise<DenyListEntryView> {
    return unwrap(await this.bus.request(Topics.WithdrawalsDenyListRemove, { address, by, asked_at: new Date().toISOString() }));
  }
}
