import { Injectable } from '@nestjs/common';
import { RequestPayload, RequestResult, RequestTopic } from '@partner/contracts';
import { MessageBus } from '@partner/kafka';
import { unwrap } from './unwrap-reply';

/**
 * What a route that only forwards a command or query to its service calls: one typed call instead of a
 * use case per route. The topic's contract types the payload and the result and keys the request; a
 * refusal becomes the ApiError of its code (unwrap), a silent service a 503 (ServiceUnavailableError).
 */
@Injectable()
export class ForwardingBus {
  constructor(private readonly bus: MessageBus) {}

  async call<T extends RequestTopic>(topic: T, payload: RequestPayload<T>): Promise<RequestResult<T>> {
    return unwrap(await this.bus.request(topic, payload));
  }
}
