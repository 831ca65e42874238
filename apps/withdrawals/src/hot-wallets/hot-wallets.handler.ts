import { Controller } from '@nestjs/common';
import { ListHotWalletsQuery, ok, RequestReply, Topics } from '@partner/contracts';
import { HandleRequest } from '@partner/kafka';
import { ListHotWalletsUseCase } from './list-hot-wallets.use-case';

/** The operator API's list of the hot wallets. */
@Controller()
export class HotWalletsHandler {
  constructor(private readonly hotWallets: ListHotWalletsUseCase) {}

  @HandleRequest(Topics.WithdrawalsHotWallets)
  async list(_query: ListHotWalletsQuery): Promise<RequestReply<typeof Topics.WithdrawalsHotWallets>> {
    return this.hotWallets.execute().then(ok);
  }
}
