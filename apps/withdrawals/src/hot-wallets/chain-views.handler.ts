import { Controller } from '@nestjs/common';
import {
  CancelPayoutCommand,
  FindingStepCommand,
  ListFindingsQuery,
  ListHotWalletsQuery,
  ok,
  ReconcileCommand,
  RequestReply,
  Topics,
} from '@partner/contracts';
import { HandleRequest } from '@partner/kafka';
import { CancelPayoutUseCase } from '../payouts/cancel-payout.use-case';
import { ListFindingsUseCase } from '../reconciliation/list-findings.use-case';
import { ON_DEMAND_RECEIPTS_BUDGET_MS, ReconcileUseCase } from '../reconciliation/reconcile.use-case';
import { StepFindingUseCase } from '../reconciliation/step-finding.use-case';
import { ListHotWalletsUseCase } from './list-hot-wallets.use-case';

/**
 * The operator API's chain requests: the hot wallets, a reconciliation run now, the findings and their
 * workflow, and the cancel of a payout's nonce.
 */
@Controller()
export class ChainViewsHandler {
  constructor(
    private readonly hotWallets: ListHotWalletsUseCase,
    private readonly reconcile: ReconcileUseCase,
    private readonly findings: ListFindingsUseCase,
    private readonly step: StepFindingUseCase,
    private readonly cancel: CancelPayoutUseCase,
  ) {}

  @HandleRequest(Topics.WithdrawalsHotWallets)
  async list(_query: ListHotWalletsQuery): Promise<RequestReply<typeof Topics.WithdrawalsHotWallets>> {
    return this.hotWallets.execute().then(ok);
  }

  @HandleRequest(Topics.WithdrawalsReconcile)
  async run(_command: ReconcileCommand): Promise<RequestReply<typeof Topics.WithdrawalsReconcile>> {
    return this.reconcile.execute(new Date(), ON_DEMAND_RECEIPTS_BUDGET_MS).then(ok);
  }

  @HandleRequest(Topics.WithdrawalsFindings)
  async listFindings(query: ListFindingsQuery): Promise<RequestReply<typeof Topics.WithdrawalsFindings>> {
    return this.findings.execute(query.status).then(ok);
  }

  @HandleRequest(Topics.WithdrawalsFindingStep)
  stepFinding(command: FindingStepCommand): Promise<RequestReply<typeof Topics.WithdrawalsFindingStep>> {
    return this.step.execute(command);
  }

  @HandleRequest(Topics.WithdrawalsCancelPayout)
  cancelPayout(command: CancelPayoutCommand): Promise<RequestReply<typeof Topics.WithdrawalsCancelPayout>> {
    return this.cancel.execute(command);
  }
}
