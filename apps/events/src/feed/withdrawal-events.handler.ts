import { Controller } from '@nestjs/common';
import { Topics, WithdrawalStateChangedEvent } from '@partner/contracts';
import { HandleEvent } from '@partner/kafka';
import { ProjectFeedEventUseCase } from './project-feed-event.use-case';

/** Domain events of the withdrawals service that partners see in their feed. */
@Controller()
export class WithdrawalEventsHandler {
  constructor(private readonly project: ProjectFeedEventUseCase) {}

  @HandleEvent(Topics.WithdrawalStateChanged)
  handle(event: WithdrawalStateChangedEvent): Promise<void> {
    return this.project.execute(event);
  }
}
