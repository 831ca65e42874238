import type { ClassConstructor } from 'class-transformer';
import { Logger } from '@nestjs/common';
import { EventPattern, MessagePattern } from '@nestjs/microservices';
import {
  EventPayload,
  EventTopic,
  eventContracts,
  RequestPayload,
  requestPayloadClassOf,
  requestRefusalsOf,
  RequestReply,
  RequestTopic,
} from '@partner/contracts';
import { validateCodedContract, validateContract } from '@partner/validation';
import { UnprocessableEventError } from './dead-letters';

type RequestHandler<T extends RequestTopic> = (payload: RequestPayload<T>, ...rest: never[]) => Promise<RequestReply<T>>;
type EventHandler<T extends EventTopic> = (payload: EventPayload<T>, ...rest: never[]) => Promise<void>;

const logger = new Logger('KafkaHandler');

/**
 * Marks a method as the handler of a request-reply topic. The payload is validated against the
 * topic's contract class before the method runs, so a handler cannot forget to validate, and the
 * method's signature must match the topic's payload and reply types or it does not compile.
 * An invalid payload is answered as a refusal rather than thrown: `invalid_request`, or the code its
 * constraint names, recognised among the topic's refusals, so the reply is the topic's type as it is.
 */
export function HandleRequest<T extends RequestTopic>(topic: T) {
  return (target: object, key: string | symbol, descriptor: TypedPropertyDescriptor<RequestHandler<T>>) => {
    const original = descriptor.value;
    if (!original) throw new Error(`@HandleRequest(${topic}) is on ${String(key)}, which is no method`);
    const payloadClass = requestPayloadClassOf(topic);
    const refusals = requestRefusalsOf(topic);
    // Takes any data (the wire's), so it is a RequestHandler<T> as it is: a function of unknown accepts the payload.
    descriptor.value = async function (this: unknown, data: unknown, ...rest: never[]): Promise<RequestReply<T>> {
      const checked = validateCodedContract(payloadClass, data, refusals);
      if (!checked.ok) {
        logger.warn(`Refused invalid payload on ${topic}: ${checked.error.message}`);
        return { ok: false, error: checked.error };
      }
      return original.call(this, checked.value, ...rest);
    };
    MessagePattern(topic)(target, key, descriptor);
    return descriptor;
  };
}

/**
 * Marks a method as the consumer of an event topic, validating the payload first. Fields the contract
 * does not know are ignored (stripped), so a producer may add one before its consumers know it. An
 * invalid event can never become valid by retrying: it is thrown as an UnprocessableEventError, which the
 * transport parks in the service's dead letters (never committed away unparked: ADR 0015). An error
 * thrown by the method itself is left to propagate, so the transport retries it (its offset uncommitted).
 */
export function HandleEvent<T extends EventTopic>(topic: T) {
  return (target: object, key: string | symbol, descriptor: TypedPropertyDescriptor<EventHandler<T>>) => {
    const original = descriptor.value as (...args: unknown[]) => Promise<void>;
    const payloadClass: ClassConstructor<object> = eventContracts[topic].payload;
    descriptor.value = async function (this: unknown, data: unknown, ...rest: unknown[]) {
      const checked = validateContract(payloadClass, data, { unknownFields: 'ignore' });
      if (!checked.ok) throw new UnprocessableEventError(topic, `invalid event: ${checked.error.message}`);
      return original.call(this, checked.value, ...rest);
    };
    EventPattern(topic)(target, key, descriptor);
    return descriptor;
  };
}
