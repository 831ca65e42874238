import { PartnerApiError, PartnerNetworkError, PartnerSdkError, PartnerTimeoutError } from './sdk-errors';
import { backoffMs, parseRetryAfter, RetryOptions, RetryPolicy, retryPolicy } from './retry-policy';

/** Per-call options, accepted by every method as its last argument. */
export interface CallOptions {
  /** This call's timeout per attempt, overriding the client's `timeoutMs`. */
  timeoutMs?: number;
  /** Cancels the call, its retries and its waits; the call then rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Sent as X-Request-Id (1-128 of A-Z a-z 0-9 . _ : -): the gateway logs and answers under it, and the events the call causes carry it. */
  requestId?: string;
  /** Overrides the client's retry options for this call (`{ maxAttempts: 1 }`: no retry). */
  retry?: RetryOptions;
}

export interface TransportOptions {
  baseUrl: string;
  apiKey: string;
  timeoutMs?: number;
  retry?: RetryOptions;
  headers?: Record<string, string>;
}

/**
 * Whether a call may be sent again when its outcome is unknown (a 503, a timeout, a network error):
 * reads, acknowledgements and writes that carry an idempotency key are `idempotent`; a write without
 * one is `unsafe`, retried only on 429 (the gateway refuses it before reading it, so it did nothing).
 */
export type Retryability = 'idempotent' | 'unsafe';

export interface HttpRequest {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  /** This request's own headers (an Idempotency-Key), sent on every attempt. */
  headers?: Record<string, string>;
  retryability: Retryability;
}

export interface HttpAnswer<T> {
  status: number;
  body: T;
  requestId: string | undefined;
}

export const DEFAULT_TIMEOUT_MS = 10_000;

/** Sends a call: JSON in and out, the API key, a timeout per attempt, retries with backoff that honour Retry-After. */
export class HttpTransport {
  private readonly baseUrl: string;

  constructor(private readonly options: TransportOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
  }

  /** A read: GET, retried on 429, 503 and network errors; answers the body. */
  async get<T>(path: string, query: HttpRequest['query'], options: CallOptions | undefined): Promise<T> {
    return (await this.send<T>({ method: 'GET', path, query, retryability: 'idempotent' }, options)).body;
  }

  async send<T>(request: HttpRequest, call: CallOptions = {}): Promise<HttpAnswer<T>> {
    const policy = retryPolicy(this.options.retry, call.retry);
    for (let attempt = 1; ; attempt++) {
      const outcome = await this.attempt<T>(request, call);
      if (!(outcome instanceof Error)) return outcome;
      const wait = attempt < policy.maxAttempts ? retryWait(outcome, request.retryability, policy, attempt) : undefined;
      if (wait === undefined) throw outcome;
      await sleep(wait, call.signal);
    }
  }

  private async attempt<T>(request: HttpRequest, call: CallOptions): Promise<HttpAnswer<T> | PartnerSdkError> {
    const timeoutMs = call.timeoutMs ?? this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const { signal, done, timedOut } = deadline(timeoutMs, call.signal);
    try {
      const response = await fetchFollowing(this.url(request), {
        method: request.method,
        headers: this.headers(request, call),
        body: request.body === undefined ? undefined : JSON.stringify(request.body),
        signal,
      });
      const text = await response.text();
      const requestId = response.headers.get('x-request-id') ?? undefined;
      const body = parseBody(text);
      if (response.ok) return { status: response.status, body: body as T, requestId };
      const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'));
      return new PartnerApiError({ status: response.status, body, requestId, retryAfterMs, method: request.method, path: request.path });
    } catch (error) {
      if (call.signal?.aborted) throw abortReason(call.signal);
      if (timedOut()) return new PartnerTimeoutError(`${request.method} ${request.path}: no answer within ${timeoutMs} ms`, timeoutMs);
      return new PartnerNetworkError(`${request.method} ${request.path}: ${error instanceof Error ? error.message : String(error)}`, {
        cause: error,
      });
    } finally {
      done();
    }
  }

  private url(request: HttpRequest): string {
    const query = new URLSearchParams();
    for (const [name, value] of Object.entries(request.query ?? {})) if (value !== undefined) query.set(name, String(value));
    const search = query.toString();
    return `${this.baseUrl}${request.path}${search ? `?${search}` : ''}`;
  }

  private headers(request: HttpRequest, call: CallOptions): Record<string, string> {
    return {
      accept: 'application/json',
      ...this.options.headers,
      'x-api-key': this.options.apiKey,
      ...(request.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...request.headers,
      ...(call.requestId ? { 'x-request-id': call.requestId } : {}),
    };
  }
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 5;

/**
 * fetch that follows redirects itself (at most MAX_REDIRECTS), so that the API key never leaves the origin
 * it was given for: fetch's own following drops only `Authorization` on a cross-origin hop, and would send
 * `X-API-Key` to whatever host a redirect names (a misconfigured proxy, a hijacked DNS name). From the first
 * hop to another origin on, the request goes without it. A 303 (and a 301 or 302 after a POST) goes on as a
 * GET without its body, as fetch does.
 */
async function fetchFollowing(url: string, init: { method: string; headers: Record<string, string>; body?: string; signal: AbortSignal }) {
  const origin = new URL(url).origin;
  let { method, headers, body } = init;
  for (let hop = 0; ; hop++) {
    const response = await fetch(url, { method, headers, body, signal: init.signal, redirect: 'manual' });
    const location = REDIRECTS.has(response.status) ? response.headers.get('location') : null;
    if (location === null || hop === MAX_REDIRECTS) return response;
    await response.body?.cancel();
    url = new URL(location, url).toString();
    if (new URL(url).origin !== origin) headers = withoutHeaders(headers, ['x-api-key']);
    if (response.status === 303 || ((response.status === 301 || response.status === 302) && method === 'POST')) {
      method = 'GET';
      body = undefined;
      headers = withoutHeaders(headers, ['content-type']);
    }
  }
}

const withoutHeaders = (headers: Record<string, string>, names: string[]): Record<string, string> =>
  Object.fromEntries(Object.entries(headers).filter(([name]) => !names.includes(name.toLowerCase())));

/** How long to wait before the next attempt, or undefined when the failure is not retried. */
function retryWait(failure: PartnerSdkError, retryability: Retryability, policy: RetryPolicy, attempt: number): number | undefined {
  const unknownOutcome =
    failure instanceof PartnerNetworkError ||
    failure instanceof PartnerTimeoutError ||
    (failure instanceof PartnerApiError && failure.status === 503);
  const refused = failure instanceof PartnerApiError && failure.status === 429;
  if (!refused && !(unknownOutcome && retryability === 'idempotent')) return undefined;
  const retryAfterMs = failure instanceof PartnerApiError ? failure.retryAfterMs : undefined;
  if (retryAfterMs === undefined) return backoffMs(policy, attempt);
  if (retryAfterMs > policy.maxRetryAfterMs) return undefined;
  // Retry-After is the earliest moment: never sooner, plus a little jitter so clients told the same second spread out.
  return retryAfterMs + Math.round(Math.random() * Math.min(policy.baseDelayMs, retryAfterMs / 10 + 1));
}

function parseBody(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** A signal that fires on the caller's signal or after `timeoutMs`, telling which (AbortSignal.any needs Node 20.3). */
function deadline(timeoutMs: number, caller: AbortSignal | undefined): { signal: AbortSignal; done: () => void; timedOut: () => boolean } {
  const controller = new AbortController();
  let expired = false;
  const timer = setTimeout(() => {
    expired = true;
    controller.abort();
  }, timeoutMs);
  const onAbort = () => controller.abort(caller?.reason);
  caller?.addEventListener('abort', onAbort, { once: true });
  if (caller?.aborted) onAbort();
  return {
    signal: controller.signal,
    timedOut: () => expired,
    done: () => {
      clearTimeout(timer);
      caller?.removeEventListener('abort', onAbort);
    },
  };
}

/** Waits `ms`, or rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortReason(signal));
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortReason(signal));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** The signal's reason (an AbortError DOMException unless the caller gave one). */
function abortReason(signal: AbortSignal | undefined): Error {
  const reason: unknown = signal?.reason;
  return reason instanceof Error ? reason : new DOMException('This operation was aborted', 'AbortError');
}
