import { CallOptions, HttpTransport, sleep } from '../http-transport';
import { Paginator } from '../paginator';
import { PartnerApiError, PartnerSdkError } from '../sdk-errors';
import type { AckEventsResult, EventsPage, EventType, ListEventsQuery, PartnerEvent } from '../sdk.types';

const PATH = '/partner/v1/events';
/** POST /partner/v1/events/ack takes at most this many ids. */
const ACK_BATCH = 1000;

export interface StreamEventsOptions {
  /** Stops the stream: the loop ends cleanly (no error) after the event in hand, or at once while waiting. */
  signal?: AbortSignal;
  /** Only events of this type. */
  type?: EventType;
  /** Events per poll (default 100). */
  limit?: number;
  /** The wait after an empty poll, doubled after each empty one up to `maxPollIntervalMs` (default 1 s). */
  pollIntervalMs?: number;
  /** The longest wait between polls of an empty feed, and after an error the API may recover from (default 30 s). */
  maxPollIntervalMs?: number;
}

export class EventsResource {
  constructor(private readonly http: HttpTransport) {}

  /** One page of the feed, in `sequence` order: `next_cursor` resumes after its last event. */
  listPage(query: ListEventsQuery = {}, options?: CallOptions): Promise<EventsPage> {
    return this.http.get(PATH, { ...query }, options);
  }

  /** The feed from the start (or from `cursor`), every event once, until the events so far are read. */
  list(query: ListEventsQuery = {}, options?: CallOptions): Paginator<PartnerEvent, EventsPage> {
    return new Paginator(async (cursor) => {
      const page = await this.listPage({ ...query, cursor: cursor ?? query.cursor }, options);
      return { items: page.events, next: page.next_cursor, page };
    });
  }

  /**
   * The undelivered events, forever: polls `delivered=false`, yields each event once (following the
   * cursor), and when the feed is empty waits (backing off to `maxPollIntervalMs`) and polls again. An
   * event you do not acknowledge comes again from the next stream (after a restart), never twice from this one.
   * Failures the API may recover from (network, timeout, 429, 503) are waited out; others are thrown.
   */
  async *stream(options: StreamEventsOptions = {}): AsyncGenerator<PartnerEvent, void, undefined> {
    const { signal, type, limit = 100, pollIntervalMs = 1_000, maxPollIntervalMs = 30_000 } = options;
    let cursor: string | undefined;
    let idle = pollIntervalMs;
    while (!signal?.aborted) {
      let page: EventsPage | undefined;
      try {
        page = await this.listPage({ delivered: false, type, limit, cursor }, { signal });
      } catch (error) {
        if (signal?.aborted) return;
        if (!recoverable(error)) throw error;
      }
      if (page) cursor = page.next_cursor;
      if (page && page.events.length > 0) {
        idle = pollIntervalMs;
        for (const event of page.events) {
          yield event;
          if (signal?.aborted) return;
        }
        continue;
      }
      if (!(await pause(idle, signal))) return;
      idle = Math.min(idle * 2, maxPollIntervalMs);
    }
  }

  /** Marks one event delivered (`PATCH /partner/v1/events/{id}`); also fine when it was already. */
  async ack(event: PartnerEvent | string, options?: CallOptions): Promise<void> {
    const id = typeof event === 'string' ? event : event.id;
    await this.http.send({ method: 'PATCH', path: `${PATH}/${encodeURIComponent(id)}`, retryability: 'idempotent' }, options);
  }

  /** Marks many delivered (`POST /partner/v1/events/ack`, 1000 per call): how many were yours, and the ids you have no event for. */
  async ackMany(events: ReadonlyArray<PartnerEvent | string>, options?: CallOptions): Promise<AckEventsResult> {
    const ids = events.map((event) => (typeof event === 'string' ? event : event.id));
    const total: AckEventsResult = { acknowledged: 0, not_found: [] };
    for (let start = 0; start < ids.length; start += ACK_BATCH) {
      const answer = await this.http.send<AckEventsResult>(
        { method: 'POST', path: `${PATH}/ack`, body: { ids: ids.slice(start, start + ACK_BATCH) }, retryability: 'idempotent' },
        options,
      );
      total.acknowledged += answer.body.acknowledged;
      total.not_found.push(...answer.body.not_found);
    }
    return total;
  }
}

/** A failure a later poll may not meet: no answer, or a 429/503 (the call's own retries exhausted). */
function recoverable(error: unknown): boolean {
  return error instanceof PartnerSdkError && (!(error instanceof PartnerApiError) || error.status === 429 || error.status === 503);
}

/** Waits `ms`; false when the signal aborted meanwhile. */
async function pause(ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  try {
    await sleep(ms, signal);
    return true;
  } catch {
    return false;
  }
}
