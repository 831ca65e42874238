import { Injectable } from '@nestjs/common';
import { ListPixInflowsRequest, ListPixInflowsResult, PartnerId, SandboxPixInRequest, SimulatePixInResult, Topics } from '@partner/contracts';
import { MessageBus } from '@partner/kafka';
import { unwrap } from '../http/unwrap-reply';

@Injectable()
export class ListPixInflowsUseCase {
  constructor(private readonly bus: MessageBus) {}

  async execute(partnerId: PartnerId, query: ListPixInflowsRequest): Promise<ListPixInflowsResult> {
    // A read needs no order: unkeyed, reads spread over partitions and run side by side.
    return unwrap(await this.bus.request(Topics.InflowsList, { ...query, partner_id: partnerId }));
  }
}

@Injectable()
export class SimulatePixInUseCase {
  constructor(private readonly bus: MessageBus) {}

  async execute(partnerId: PartnerId, request: SandboxPixInRequest): Promise<SimulatePixInResult> {
    return unwrap(await this.bus.request(Topics.InflowsSimulatePixIn, { ...request, partner_id: partnerId }, `${partnerId}:${request.document}`));
  }
}
