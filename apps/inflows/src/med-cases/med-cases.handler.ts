import { Controller } from '@nestjs/common';
import { MedCaseReceivedEvent, Topics } from '@partner/contracts';
import { answer, HandleEvent, requestHandlers } from '@partner/kafka';
import { DecideMedCaseUseCase } from './decide-med-case.use-case';
import { ListMedCasesUseCase } from './list-med-cases.use-case';
import { ReceiveMedCaseUseCase } from './receive-med-case.use-case';

/** Consumes the pix-keys service's MED cases (a consumer group of this service's: every case, once per case_id). */
@Controller()
export class MedCaseEventsHandler {
  constructor(private readonly receive: ReceiveMedCaseUseCase) {}

  @HandleEvent(Topics.PixKeysMedCaseReceived)
  handle(event: MedCaseReceivedEvent): Promise<void> {
    return this.receive.execute(event);
  }
}

export const MedCasesHandler = requestHandlers('MedCasesHandler', [
  // GET /admin/v1/med-cases.
  answer(Topics.InflowsListMedCases, ListMedCasesUseCase),
  // POST /admin/v1/med-cases/{case_id}/decision.
  answer(Topics.InflowsDecideMedCase, DecideMedCaseUseCase),
]);
