import { Controller } from '@nestjs/common';
import { BusinessCustomerRegisteredEvent, PixInStateChangedEvent, PixKeyStateChangedEvent, Topics, WithdrawalStateChangedEvent } from '@partner/contracts';
import { HandleEvent } from '@partner/kafka';
import { ProjectFeedEventUseCase } from './project-feed-event.use-case';

/** Every domain event topic that partners see in their feed; each one is projected the same way. */
@Controller()
export class DomainEventsHandler {
  constructor(private readonly project: ProjectFeedEventUseCase) {}

  @HandleEvent(Topics.WithdrawalStateChanged)
  withdrawal(event: WithdrawalStateChangedEvent): Promise<void> {
    return this.project.execute(event);
  }

  @HandleEvent(Topics.PixKeyStateChanged)
  pixKey(event: PixKeyStateChangedEvent): Promise<void> {
    return this.project.execute(event);
  }

  @HandleEvent(Topics.PixInStateChanged)
  pixIn(event: PixInStateChangedEvent): Promise<void> {
    return this.project.execute(event);
  }

  @HandleEvent(Topics.BusinessCustomerRegistered)
  businessCustomer(event: BusinessCustomerRegisteredEvent): Promise<void> {
    return this.project.execute(event);
  }
}
