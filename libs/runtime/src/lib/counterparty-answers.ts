/**
 * Calling a counterparty over HTTP and reading its answers (DICT, the Pix provider's API): the parts every adapter
 * needs the same way, so none sets a deadline, reads a header or a body its own way.
 */
import { Dispatcher, request } from 'undici';

/** What a counterparty answered: its status, its body as text, and how long it asked to be left alone (Retry-After). */
export interface CounterpartyAnswer {
  status: number;
  text: string;
  retryAfterMs?: number;
}

export interface CounterpartyCall {
  method: Dispatcher.HttpMethod;
  /** The adapter's connection pool (its TLS identity, its keep-alive). */
  dispatcher: Dispatcher;
  headers?: Record<string, string>;
  body?: string;
  /** The whole call's deadline, the body included: an answer trickled byte by byte is cut there too. */
  timeoutMs: number;
  /** The largest body read (readLimited). */
  maxBytes: number;
}

/** One call; throws when no whole answer came in time (refused, reset, timed out, too large): the caller's `unavailable`. */
export async function callCounterparty(url: string, call: CounterpartyCall): Promise<CounterpartyAnswer> {
  const res = await request(url, {
    method: call.method,
    dispatcher: call.dispatcher,
    headers: call.headers,
    body: call.body,
    headersTimeout: call.timeoutMs,
    bodyTimeout: call.timeoutMs,
    signal: AbortSignal.timeout(call.timeoutMs),
  });
  const text = await readLimited(res.body, call.maxBytes);
  const wait = retryAfterMs(res.headers['retry-after']);
  return { status: res.statusCode, text, ...(wait === undefined ? {} : { retryAfterMs: wait }) };
}

/** A `Retry-After` header (RFC 9110: delay-seconds or an HTTP-date) in milliseconds from now; undefined when absent or unreadable. */
export function retryAfterMs(header: string | string[] | undefined, now = Date.now()): number | undefined {
  const value = (Array.isArray(header) ? header[0] : header)?.trim();
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** An answer's body as text, refused past `limit` bytes (a counterparty gone wrong cannot fill the memory). */
async function readLimited(body: AsyncIterable<Buffer | Uint8Array>, limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > limit) throw new Error(`answer larger than ${limit} bytes`);
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** A failed call, in words for a log or a reason: the error's name, message and system code (ECONNREFUSED...). */
export function describeCallError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as Error & { cause?: unknown }).cause;
  const code = (error as NodeJS.ErrnoException).code ?? (cause instanceof Error ? (cause as NodeJS.ErrnoException).code : undefined);
  return `${error.name}: ${error.message}${code ? ` (${code})` : ''}`;
}
