import { BusProducer, OutgoingMessage } from './kafka-port';

interface Pending {
  topic: string;
  message: OutgoingMessage;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * Turns the sends made during one turn of the event loop into one produce request. Under load, dozens of
 * handlers finish (or HTTP requests arrive) in the same turn; one request each costs a round trip and a
 * syscall per message on both sides, one request for all costs one. Order is kept per topic-partition
 * by Kafka, and each caller still learns whether its own message was acknowledged.
 *
 * One produce request at a time: what is sent while one is in flight waits for its acknowledgement and
 * leaves with everything else sent meanwhile (Nagle's rule, for produce requests). Alone, a message
 * leaves at once, as before; at 200 requests a second, where arrivals are 5 ms apart and rarely share a
 * turn of the loop, the requests in flight batch themselves, and the broker, this process and the
 * consumer's fetches handle a request per batch instead of per message, which is what costs them CPU.
 * The wait is at most one acknowledgement, which the sender waited for anyway.
 */
export class SendCoalescer {
  private queue: Pending[] = [];
  private scheduled = false;
  private inFlight = false;

  constructor(
    private readonly producer: Pick<BusProducer, 'sendBatch'>,
    private readonly acks: -1 | 1,
  ) {}

  send(topic: string, message: OutgoingMessage): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ topic, message, resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.inFlight || this.queue.length === 0) return;
    this.scheduled = true;
    setImmediate(() => void this.flush());
  }

  private async flush(): Promise<void> {
    const batch = this.queue;
    this.queue = [];
    this.scheduled = false;
    this.inFlight = true;
    const byTopic = new Map<string, OutgoingMessage[]>();
    for (const p of batch) {
      const list = byTopic.get(p.topic) ?? [];
      list.push(p.message);
      byTopic.set(p.topic, list);
    }
    try {
      await this.producer.sendBatch(
        this.acks,
        [...byTopic].map(([topic, messages]) => ({ topic, messages })),
      );
      for (const p of batch) p.resolve();
    } catch (error) {
      for (const p of batch) p.reject(error);
    } finally {
      this.inFlight = false;
      this.schedule();
    }
  }
}
