import { Controller, Type } from '@nestjs/common';
import { RequestPayload, RequestReply, RequestTopic } from '@partner/contracts';
import { HandleRequest } from './handler.decorators';

/** A use case that answers a request topic as it is: its `execute` takes the topic's payload and resolves with its reply. */
export type RequestUseCase<T extends RequestTopic> = { execute(payload: RequestPayload<T>): Promise<RequestReply<T>> };

/** One row of `requestHandlers`: the topic and the use case that answers it. */
export interface RequestRoute<T extends RequestTopic = RequestTopic> {
  topic: T;
  useCase: Type<RequestUseCase<T>>;
}

/** A row of `requestHandlers`; the compiler checks that the use case takes the topic's payload and gives its reply. */
export const answer = <T extends RequestTopic>(topic: T, useCase: Type<RequestUseCase<T>>): RequestRoute<T> => ({ topic, useCase });

/**
 * A Kafka controller for topics that each go straight to a use case: one `@HandleRequest` method per row
 * (named after its topic), so each payload is validated against its contract first, as in a hand-written
 * handler. A handler that needs the message's context (its command id) stays written by hand.
 */
export function requestHandlers(name: string, routes: RequestRoute[]): Type {
  @Controller()
  class RequestHandlers {
    readonly useCases: RequestUseCase<RequestTopic>[];
    constructor(...useCases: RequestUseCase<RequestTopic>[]) {
      this.useCases = useCases;
    }
  }
  Object.defineProperty(RequestHandlers, 'name', { value: name });
  // What Nest injects: the use cases, in the rows' order (the constructor takes them as a rest parameter).
  Reflect.defineMetadata(
    'design:paramtypes',
    routes.map((r) => r.useCase),
    RequestHandlers,
  );
  routes.forEach(({ topic }, i) => {
    const descriptor: PropertyDescriptor = {
      value(this: RequestHandlers, payload: RequestPayload<RequestTopic>) {
        return this.useCases[i].execute(payload);
      },
      writable: true,
      configurable: true,
    };
    HandleRequest(topic)(RequestHandlers.prototype, topic, descriptor);
    Object.defineProperty(RequestHandlers.prototype, topic, descriptor);
  });
  return RequestHandlers;
}
