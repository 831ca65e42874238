import { Injectable, Logger } from '@nestjs/common';
import { PixKeyStateChangedEvent } from '@partner/contracts';
import { PixKeyReplicaRepository } from './pix-key-replica.repository';

/** Keeps the replica of Pix keys up to date from the pix-keys service's events. */
@Injectable()
export class ApplyPixKeyEventUseCase {
  private readonly logger = new Logger(ApplyPixKeyEventUseCase.name);

  constructor(private readonly replica: PixKeyReplicaRepository) {}

  /** `event` was validated at the consumer boundary (@HandleEvent), its snapshot (a valid CPF) included. */
  async execute(event: PixKeyStateChangedEvent): Promise<void> {
    const applied = await this.replica.apply(event.partner_id, {
      keyId: event.resource_id,
      key: event.resource.key,
      document: event.resource.document,
      state: event.state,
      occurredAt: new Date(event.occurred_at),
    });
    if (!applied) this.logger.debug(`pix_key event ${event.event_id} is not newer than the replica; ignored`);
  }
}
