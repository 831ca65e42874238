import { RequestPayload, RequestReply, RequestTopic } from '@partner/contracts';
import { inProcessContext, ServiceUnavailableError } from '@partner/kafka';
import { randomUUID } from 'node:crypto';
import { defer, firstValueFrom, mergeMap, timeout, TimeoutError } from 'rxjs';
import { InProcessServer } from './in-process-server';

/**
 * The gateway's bus in the bench baseline: `request` runs the handler registered for the topic in this
 * process instead of a Kafka round trip, with MessageBus's behaviour around it (a reply late by
 * REQUEST_TIMEOUT_MS, or a handler that throws, is a ServiceUnavailableError, i.e. a 503).
 */
export class InProcessBus {
  constructor(
    private readonly server: InProcessServer,
    private readonly requestTimeoutMs: number,
  ) {}

  async request<T extends RequestTopic>(topic: T, payload: RequestPayload<T>): Promise<RequestReply<T>> {
    const handler = this.server.getHandlerByPattern(topic);
    // A topic served by no in-process module (pix keys, customers, inflows, events): in the real stack
    // nobody would answer either, so the caller gets what a timeout gives, without waiting for it.
    if (!handler) throw new ServiceUnavailableError(topic, 'timed_out');
    try {
      // Through JSON both ways, as over Kafka: the handler sees the plain object a consumer would
      // decode (class instances and undefined fields gone), the gateway the reply a client would get.
      const data: unknown = JSON.parse(JSON.stringify(payload));
      // A message context as KafkaServer gives one, with the command's id.
      const reply$ = defer(() => handler(data, inProcessContext(topic, randomUUID()))).pipe(
        mergeMap((result) => this.server.transformToObservable(result)),
        timeout(this.requestTimeoutMs),
      );
      return JSON.parse(JSON.stringify(await firstValueFrom(reply$))) as RequestReply<T>;
    } catch (error) {
      if (error instanceof TimeoutError) throw new ServiceUnavailableError(topic, 'timed_out');
      throw new ServiceUnavailableError(topic, 'failed', error);
    }
  }
}
