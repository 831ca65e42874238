import { Controller } from '@nestjs/common';
import { ListFindingsQuery, ListHotWalletsQuery, ok, ReconcileCommand, RequestReply, Topics } from '@partner/contracts';
import { HandleRequest } from '@partner/kafka';
import { ListFindingsUseCase } from '../reconciliation/list-findings.use-case';
import { ReconcileUseCase } from '../reconciliation/reconcile.use-case';
import { ListHotWalletsUseCase } from './list-hot-wallets.use-case';

/** The operator API's chain requests: the hot wallets, a reconciliation run now, the findings. */
@Controller()
export class ChainViewsHandler {
  constructor(
    private readonly hotWallets: ListHotWalletsUseCase,
    private readonly reconcile: ReconcileUseCase,
    private readonly findings: ListFindingsUseCase,
  ) {}

  @HandleRequest(Topics.WithdrawalsHotWallets)
  async list(_query: ListHotWalletsQuery): Promise<RequestReply<typeof Topics.WithdrawalsHotWallets>> {
    return this.hotWallets.execute().then(ok);
  }

  @HandleRequest(Topics.WithdrawalsReconcile)
  async run(_command: ReconcileCommand): Promise<RequestReply<typeof Topics.WithdrawalsReconcile>> {
    return this.reconcile.execute().then(ok);
  }

  @HandleRequest(Topics.WithdrawalsFindings)
  async listFindings(_query: ListFindingsQuery): Promise<RequestReply<typeof Topics.WithdrawalsFindings>> {
    return this.findings.execute().then(ok);
  }
}
