import { Controller } from '@nestjs/common';
import { BusinessCustomerRegisteredEvent, PixInStateChangedEvent, PixKeyStateChangedEvent, Topics, WithdrawalStateChangedEvent } from '@partner/contracts';
import { HandleEvent } from '@partner/kafka';
import { ProjectFeedEventUseCase } from './project-feed-event.use-case';

/** Every domain event topic that partners see in their feed; each one is projected the same way. */
@Controller()
export class DomainEventsHandler {
  constructor(private readonly project: ProjectFeedEventUseCase) {}

  @HandleEvent(Topics.WithdrawalStateChanged)
  async withdrawal(event: WithdrawalStateChangedEvent): Promise<void> {
    await this.project.execute(event);
  }

  @HandleEvent(Topics.PixKeyStateChanged)
  async pixKey(event: PixKeyStateChangedEvent): Promise<void> {
    await this.project.execute(event);
  }

  @HandleEvent(Topics.PixInStateChanged)
  async pixIn(event: PixInStateChangedEvent): Promise<void> {
    await this.project.execute(event);
  }

  @HandleEvent(Topics.BusinessCustomerRegistered)
  async businessCustomer(event: BusinessCustomerRegisteredEvent): Promise<void> {
    await this.project.execute(event);
  }
}
