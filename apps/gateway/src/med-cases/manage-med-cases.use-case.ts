import { Injectable } from '@nestjs/common';
import { DecideMedCaseRequest, ListMedCasesRequest, MedCasesPage, MedCaseView, Topics } from '@partner/contracts';
import { MessageBus } from '@partner/kafka';
import { unwrap } from '../http/unwrap-reply';

/** The operator reads and decides MED cases, kept (with the funds they block) by the inflows service. */
@Injectable()
export class ManageMedCasesUseCase {
  constructor(private readonly bus: MessageBus) {}

  async list(query: ListMedCasesRequest): Promise<MedCasesPage> {
    return unwrap(await this.bus.request(Topics.InflowsListMedCases, query));
  }

  async decide(caseId: string, body: DecideMedCaseRequest, by: string): Promise<MedCaseView> {
    return unwrap(
      await this.bus.request(Topics.InflowsDecideMedCase, { ...body, case_id: caseId, by, asked_at: new Date().toISOString() }),
    );
  }
}
