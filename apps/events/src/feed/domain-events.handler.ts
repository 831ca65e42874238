import { Controller } from '@nestjs/common';
import {
  BusinessCustomerRegisteredEvent,
  PixInRefundStateChangedEvent,
  PixInStateChangedEvent,
  PixKeyClaimChangedEvent,
  PixKeyStateChangedEvent,
  Topics,
  WithdrawalStateChangedEvent,
} from '@partner/contracts';
import { HandleEvent } from '@partner/kafka';
import { RequestContexts } from '@partner/runtime';
import { ProjectFeedEventUseCase } from './project-feed-event.use-case';

/**
 * Every domain event topic that partners see in their feed; each one is projected the same way. The
 * request that caused an event, if one did, comes as the message's request_id header, which the Kafka
 * transport made the handler's request context (docs/architecture.md: "Request context").
 */
@Controller()
export class DomainEventsHandler {
  constructor(private readonly project: ProjectFeedEventUseCase) {}

  @HandleEvent(Topics.WithdrawalStateChanged)
  async withdrawal(event: WithdrawalStateChangedEvent): Promise<void> {
    await this.project.execute(event, causedBy());
  }

  @HandleEvent(Topics.PixKeyStateChanged)
  async pixKey(event: PixKeyStateChangedEvent): Promise<void> {
    await this.project.execute(event, causedBy());
  }

  @HandleEvent(Topics.PixKeyClaimChanged)
  async pixKeyClaim(event: PixKeyClaimChangedEvent): Promise<void> {
    await this.project.execute(event, causedBy());
  }

  @HandleEvent(Topics.PixInStateChanged)
  async pixIn(event: PixInStateChangedEvent): Promise<void> {
    await this.project.execute(event, causedBy());
  }

  @HandleEvent(Topics.PixInRefundStateChanged)
  async pixInRefund(event: PixInRefundStateChangedEvent): Promise<void> {
    await this.project.execute(event, causedBy());
  }

  @HandleEvent(Topics.BusinessCustomerRegistered)
  async businessCustomer(event: BusinessCustomerRegisteredEvent): Promise<void> {
    await this.project.execute(event, causedBy());
  }
}

const causedBy = (): string | null => RequestContexts.current()?.requestId ?? null;
