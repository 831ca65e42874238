import { AsyncLocalStorage } from 'node:async_hooks';
import { context as traceContext, ROOT_CONTEXT } from '@opentelemetry/api';

/**
 * What ties a log line or an event to the partner's call that caused it (docs/architecture.md: "Request context"): the
 * gateway opens one per HTTP request, the id and the partner travel in the headers of the Kafka request
 * (or direct query), and the service runs the handler inside the same context again. The logging module
 * adds both to every line written inside it; a unit of work stamps the id on the events it emits.
 *
 * One AsyncLocalStorage.run per request or message, no more: on Node 20 it costs a hook on every promise
 * created inside, which is why nothing else here (no child logger, no interceptor) is built per request.
 */
export interface RequestContext {
  readonly requestId: string;
  /** Known once the API key is verified (the gateway's ApiKeyGuard sets it on the open context). */
  partnerId?: string;
}

const storage = new AsyncLocalStorage<RequestContext>();

/**
 * A request id we accept from outside (the caller's X-Request-Id, a Kafka or HTTP header): 1-128
 * characters of letters, digits and `.` `_` `:` `-`. Enough for UUIDs, ULIDs and most tracing ids; no
 * spaces, quotes or control characters that could forge a log line or a header.
 */
export const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** `value` when it is a sane request id, otherwise undefined (the caller then generates one). */
export function saneRequestId(value: unknown): string | undefined {
  return typeof value === 'string' && SANE_REQUEST_ID.test(value) ? value : undefined;
}

export const RequestContexts = {
  /** Runs `work` (and everything it awaits or schedules) inside `context`. */
  run<R>(context: RequestContext, work: () => R): R {
    return storage.run(context, work);
  },

  /** The context of the request being handled, if any. */
  current(): RequestContext | undefined {
    return storage.getStore();
  },

  /**
   * Runs `work` outside any request: for timers and batches started by one request but serving many (an
   * outbox relay woken after a commit, a micro-batch), which would otherwise carry that request's id
   * in every later log line, and its trace (docs/operations/observability.md: "Tracing") in every later span.
   */
  outside<R>(work: () => R): R {
    return storage.exit(() => traceContext.with(ROOT_CONTEXT, work));
  },
};

/** Header names of the context on Kafka messages (requests, and events a request caused). */
export const CONTEXT_HEADERS = { requestId: 'request_id', partnerId: 'partner_id' } as const;

/** The same on the internal HTTP port of direct queries. */
export const CONTEXT_HTTP_HEADERS = { requestId: 'x-request-id', partnerId: 'x-partner-id' } as const;

/** Headers carrying `context` (the current one by default); undefined outside a request. */
export function contextHeaders(
  names: { requestId: string; partnerId: string },
  context = storage.getStore(),
): Record<string, string> | undefined {
  if (!context) return undefined;
  return context.partnerId
    ? { [names.requestId]: context.requestId, [names.partnerId]: context.partnerId }
    : { [names.requestId]: context.requestId };
}

/** The context a message's headers carry, when they carry a sane request id. */
export function contextFromHeaders(requestId: unknown, partnerId: unknown): RequestContext | undefined {
  const id = saneRequestId(requestId);
  if (!id) return undefined;
  const partner = saneRequestId(partnerId);
  return partner ? { requestId: id, partnerId: partner } : { requestId: id };
}
