import { Controller } from '@nestjs/common';
import { PixKeyStateChangedEvent, Topics } from '@partner/contracts';
import { HandleEvent } from '@partner/kafka';
import { ApplyPixKeyEventUseCase } from './apply-pix-key-event.use-case';

/**
 * Consumes the pix-keys service's events (its tables are not ours to read) to know which users have a
 * registered key, which a Pix sent by key (`dict`) needs.
 */
@Controller()
export class PixKeyEventsHandler {
  constructor(private readonly applyEvent: ApplyPixKeyEventUseCase) {}

  @HandleEvent(Topics.PixKeyStateChanged)
  handle(event: PixKeyStateChangedEvent): Promise<void> {
    return this.applyEvent.execute(event);
  }
}
