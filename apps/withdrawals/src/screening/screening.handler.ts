import { Controller } from '@nestjs/common';
import {
  DenyListAddCommand,
  DenyListQuery,
  DenyListRemoveCommand,
  ok,
  ReplaceSdnListCommand,
  RequestReply,
  ScreeningStatusQuery,
  Topics,
} from '@partner/contracts';
import { HandleRequest } from '@partner/kafka';
import { ChangeDenyListUseCase } from './change-deny-list.use-case';
import { GetScreeningStatusUseCase } from './get-screening-status.use-case';
import { ListDenyListUseCase } from './list-deny-list.use-case';
import { ReplaceSdnListUseCase } from './replace-sdn-list.use-case';

/** The operator API's screening requests: the lists' state, a new SDN copy, the deny list. */
@Controller()
export class ScreeningHandler {
  constructor(
    private readonly status: GetScreeningStatusUseCase,
    private readonly sdn: ReplaceSdnListUseCase,
    private readonly denyList: ChangeDenyListUseCase,
    private readonly denyPage: ListDenyListUseCase,
  ) {}

  @HandleRequest(Topics.WithdrawalsScreeningStatus)
  getStatus(_query: ScreeningStatusQuery): Promise<RequestReply<typeof Topics.WithdrawalsScreeningStatus>> {
    return this.status.execute().then(ok);
  }

  @HandleRequest(Topics.WithdrawalsReplaceSdnList)
  replaceSdn(command: ReplaceSdnListCommand): Promise<RequestReply<typeof Topics.WithdrawalsReplaceSdnList>> {
    return this.sdn.execute(command);
  }

  @HandleRequest(Topics.WithdrawalsDenyList)
  listDenied(query: DenyListQuery): Promise<RequestReply<typeof Topics.WithdrawalsDenyList>> {
    return this.denyPage.execute(query).then(ok);
  }

  @HandleRequest(Topics.WithdrawalsDenyListAdd)
  deny(command: DenyListAddCommand): Promise<RequestReply<typeof Topics.WithdrawalsDenyListAdd>> {
    return this.denyList.add(command);
  }

  @HandleRequest(Topics.WithdrawalsDenyListRemove)
  undeny(command: DenyListRemoveCommand): Promise<RequestReply<typeof Topics.WithdrawalsDenyListRemove>> {
    return this.denyList.remove(command);
  }
}
