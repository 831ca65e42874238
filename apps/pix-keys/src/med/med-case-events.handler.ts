import { Controller } from '@nestjs/common';
import { MedCaseChangedEvent, Topics } from '@partner/contracts';
import { HandleEvent, UnprocessableEventError } from '@partner/kafka';
import { RecordMedCaseDecisionUseCase } from './record-med-case-decision.use-case';

/** The inflows service's MED case events: a decided case's close, for DICT. */
@Controller()
export class MedCaseEventsHandler {
  constructor(private readonly decision: RecordMedCaseDecisionUseCase) {}

  @HandleEvent(Topics.MedCaseChanged)
  async handle(event: MedCaseChangedEvent): Promise<void> {
    const recorded = await this.decision.execute(event);
    // A decision DICT cannot take (a result of the other kind, an accepted refund without its devolução) never will:
    // parked in the dead letters for an operator rather than retried.
    if (recorded.outcome === 'invalid') throw new UnprocessableEventError(Topics.MedCaseChanged, recorded.reason);
  }
}
