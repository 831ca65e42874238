import { Controller } from '@nestjs/common';
import { MedCaseCancelledEvent, MedCaseReceivedEvent, Topics } from '@partner/contracts';
import { CancelMedCaseUseCase } from './cancel-med-case.use-case';
import { answer, HandleEvent, requestHandlers } from '@partner/kafka';
import { DecideMedCaseUseCase } from './decide-med-case.use-case';
import { ListMedCasesUseCase } from './list-med-cases.use-case';
import { ReceiveMedCaseUseCase } from './receive-med-case.use-case';

/** Consumes the pix-keys service's MED cases and their cancellations (a consumer group of this service's: each once per case_id). */
@Controller()
export class MedCaseEventsHandler {
  constructor(
    private readonly receive: ReceiveMedCaseUseCase,
    private readonly cancel: CancelMedCaseUseCase,
  ) {}

  @HandleEvent(Topics.PixKeysMedCaseReceived)
  handle(event: MedCaseReceivedEvent): Promise<void> {
    return this.receive.execute(event);
  }

  @HandleEvent(Topics.PixKeysMedCaseCancelled)
  handleCancelled(event: MedCaseCancelledEvent): Promise<void> {
    return this.cancel.execute(event);
  }
}

export const MedCasesHandler = requestHandlers('MedCasesHandler', [
  // GET /admin/v1/med-cases.
  answer(Topics.InflowsListMedCases, ListMedCasesUseCase),
  // POST /admin/v1/med-cases/{case_id}/decision.
  answer(Topics.InflowsDecideMedCase, DecideMedCaseUseCase),
]);
