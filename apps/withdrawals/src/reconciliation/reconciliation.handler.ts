import { Controller } from '@nestjs/common';
import { FindingStepCommand, ListFindingsQuery, ok, ReconcileCommand, RequestReply, Topics } from '@partner/contracts';
import { HandleRequest } from '@partner/kafka';
import { ListFindingsUseCase } from './list-findings.use-case';
import { ON_DEMAND_RECEIPTS_BUDGET_MS, ReconcileUseCase } from './reconcile.use-case';
import { StepFindingUseCase } from './step-finding.use-case';

/** The operator API's reconciliation requests: a run now, the findings and their workflow. */
@Controller()
export class ReconciliationHandler {
  constructor(
    private readonly reconcile: ReconcileUseCase,
    private readonly findings: ListFindingsUseCase,
    private readonly step: StepFindingUseCase,
  ) {}

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
}
