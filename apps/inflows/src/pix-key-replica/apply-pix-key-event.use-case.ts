import { Injectable, Logger } from '@nestjs/common';
import { PixKeyStateChangedEvent } from '@partner/contracts';
import { isCpf } from '@partner/validation';
import { PixKeyReplicaRepository } from './pix-key-replica.repository';

/** Keeps the replica of Pix keys up to date from the pix-keys service's events. */
@Injectable()
export class ApplyPixKeyEventUseCase {
  private readonly logger = new Logger(ApplyPixKeyEventUseCase.name);

  constructor(private readonly replica: PixKeyReplicaRepository) {}

  async execute(event: PixKeyStateChangedEvent): Promise<void> {
    // The envelope is validated by the contract; the snapshot inside it is the producer's, so check what we use.
    const document = event.resource.document;
    if (!isCpf(document)) {
      this.logger.error(`Skipped pix_key event ${event.event_id}: its resource has no valid document`);
      return;
    }
    const applied = await this.replica.apply(event.partner_id, {
      keyId: event.resource_id,
      document,
      state: event.state,
      occurredAt: new Date(event.occurred_at),
    });
    if (!applied) this.logger.debug(`pix_key event ${event.event_id} is not newer than the replica; ignored`);
  }
}
