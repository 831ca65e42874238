import { Injectable } from '@nestjs/common';
import { CreatePixKeyRequest, DeletePixKeyRequest, GetPixKeyResult, PartnerId, PixKeyStatusResult, Topics } from '@partner/contracts';
import { MessageBus } from '@partner/kafka';
import { unwrap } from '../http/unwrap-reply';

/**
 * Both commands are keyed by partner and CPF: every request about one user's key lands on one partition
 * and is handled in turn (the service's unique index still guarantees one active key on its own).
 */
const keyOf = (partnerId: PartnerId, document: string) => `${partnerId}:${document}`;

@Injectable()
export class CreatePixKeyUseCase {
  constructor(private readonly bus: MessageBus) {}

  async execute(partnerId: PartnerId, request: CreatePixKeyRequest): Promise<PixKeyStatusResult> {
    const command = { ...request, partner_id: partnerId };
    return unwrap(await this.bus.request(Topics.PixKeysCreate, command, keyOf(partnerId, request.document)));
  }
}

@Injectable()
export class DeletePixKeyUseCase {
  constructor(private readonly bus: MessageBus) {}

  async execute(partnerId: PartnerId, document: string, request: DeletePixKeyRequest): Promise<PixKeyStatusResult> {
    const command = { ...request, document, partner_id: partnerId };
    return unwrap(await this.bus.request(Topics.PixKeysDelete, command, keyOf(partnerId, document)));
  }
}

@Injectable()
export class GetPixKeyUseCase {
  constructor(private readonly bus: MessageBus) {}

  async execute(partnerId: PartnerId, document: string): Promise<GetPixKeyResult> {
    // A read needs no order: unkeyed, reads spread over partitions and run side by side.
    return unwrap(await this.bus.request(Topics.PixKeysGet, { partner_id: partnerId, document }));
  }
}
