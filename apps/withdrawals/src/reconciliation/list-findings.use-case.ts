import { Injectable } from '@nestjs/common';
import { ListFindingsResult } from '@partner/contracts';
import { ReconciliationRepository } from './reconciliation.repository';

@Injectable()
export class ListFindingsUseCase {
  constructor(private readonly findings: ReconciliationRepository) {}

  async execute(): Promise<ListFindingsResult> {
    const rows = await this.findings.list(200);
    return {
      findings: rows.map((f) => ({
        id: f.id,
        network: f.network,
        kind: f.kind,
        withdrawal_id: f.withdrawalId,
        detail: f.detail,
        created_at: Math.floor(f.createdAt.getTime() / 1000),
      })),
    };
  }
}
