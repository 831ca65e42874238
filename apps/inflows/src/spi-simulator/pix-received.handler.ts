import { Controller } from '@nestjs/common';
import { PixReceivedEvent, Topics } from '@partner/contracts';
import { HandleEvent } from '@partner/kafka';
import { NotifyReceivedPixUseCase } from './notify-received-pix.use-case';

@Controller()
export class PixReceivedHandler {
  constructor(private readonly notifyReceivedPix: NotifyReceivedPixUseCase) {}

  /** A payment the simulated Pix network announces for one of our users (sandbox). */
  @HandleEvent(Topics.SpiPixReceived)
  async received(payment: PixReceivedEvent): Promise<void> {
    await this.notifyReceivedPix.execute(payment);
  }
}
