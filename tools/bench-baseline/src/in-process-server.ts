import { CustomTransportStrategy, Server } from '@nestjs/microservices';

/**
 * A Nest transport that receives nothing: connecting it to an app makes Nest register that app's
 * `@MessagePattern` handlers (so every `@HandleRequest` with its contract validation) on this server,
 * where `getHandlerByPattern(topic)` hands them to the in-process bus. No broker, no consumer group.
 */
export class InProcessServer extends Server implements CustomTransportStrategy {
  listen(callback: () => void): void {
    callback();
  }

  close(): void {
    /* nothing to release */
  }

  on(): void {
    /* no connection, so no transport events */
  }

  unwrap<T>(): T {
    throw new Error('InProcessServer has no underlying client');
  }
}
