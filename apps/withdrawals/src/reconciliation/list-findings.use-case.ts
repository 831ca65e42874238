import { Injectable } from '@nestjs/common';
import { FindingStatus, ListFindingsResult } from '@partner/contracts';
import { toFindingView } from './finding-view';
import { ReconciliationRepository } from './reconciliation.repository';

@Injectable()
export class ListFindingsUseCase {
  constructor(private readonly findings: ReconciliationRepository) {}

  async execute(status?: FindingStatus): Promise<ListFindingsResult> {
    return { findings: (await this.findings.list(200, status)).map(toFindingView) };
  }
}
