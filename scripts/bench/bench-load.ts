/**
 * Load generators and statistics for `npm run bench`: a closed loop (N workers, each sends its next
 * request when the previous one answered) and an open loop (requests leave on a fixed schedule,
 * whatever the answers; latency counted from the scheduled time, so a stall is not hidden by the
 * generator waiting for it: no coordinated omission).
 */
import { performance } from 'node:perf_hooks';
import { Pool } from 'undici';
import { newUuid, VALID_ADDRESS } from '../../libs/testing/src';

export const USDT = 1_000_000;

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export interface Distribution {
  count: number;
  mean: number;
  p50: number;
  p90: number;
  p95: number;
  p99: number;
  /** p99.9: the open loop's tail (issue #27); at a few thousand requests, one of the last few. */
  p999: number;
  max: number;
}

/** Nearest-rank percentiles. */
export function distribution(values: number[]): Distribution | null {
  if (values.length === 0) return null;
  const sorted = Float64Array.from(values).sort();
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
  const round = (n: number) => Math.round(n * 100) / 100;
  return {
    count: sorted.length,
    mean: round(sorted.reduce((a, b) => a + b, 0) / sorted.length),
    p50: round(at(50)),
    p90: round(at(90)),
    p95: round(at(95)),
    p99: round(at(99)),
    p999: round(at(99.9)),
    max: round(sorted[sorted.length - 1]),
  };
}

/**
 * The load's HTTP client: one undici Pool of keep-alive connections per stack, no fetch() machinery
 * (Request/Response objects, web streams, an abort timer per request). The generator shares the two
 * cores with the stack it measures, so what it spends is taken from the stack: with fetch() it cost
 * about 1.1 ms of CPU per request, more than the events service. The e2e suites keep ApiClient (it
 * checks each answer against the OpenAPI document); the bench only needs the status and the id.
 */
export class LoadClient {
  private static readonly pools = new Map<string, Pool>();
  private readonly pool: Pool;
  private readonly headers: Record<string, string>;

  constructor(baseUrl: string, apiKey: string) {
    const origin = new URL(baseUrl).origin;
    let pool = LoadClient.pools.get(origin);
    if (!pool) {
      // No cap on sockets (as fetch's global agent): a request in flight never queues in the generator,
      // whose wait would be counted as the stack's. Idle sockets close after 30 s.
      pool = new Pool(origin, { connections: null, keepAliveTimeout: 30_000, headersTimeout: 30_000, bodyTimeout: 30_000 });
      LoadClient.pools.set(origin, pool);
    }
    this.pool = pool;
    this.headers = { 'content-type': 'application/json', 'x-api-key': apiKey };
  }

  async post(path: string, body: unknown): Promise<{ status: number; text: string }> {
    const res = await this.pool.request({ method: 'POST', path, headers: this.headers, body: JSON.stringify(body) });
    return { status: res.statusCode, text: await res.body.text() };
  }
}

/** Who sends request number i: the partner's client (pointed at the stack under test) and the user. */
export type Pick = (i: number) => { api: LoadClient; document: string };

export interface LoadResult {
  requests: number;
  durationMs: number;
  throughput: number;
  statusCounts: Record<string, number>;
  latencyMs: Distribution | null;
  /** Ids of the withdrawals created (201), for the database-side measures. */
  ids: number[];
  non2xxSamples: string[];
  /** Raw latencies, kept to merge the passes of one level (not written to results.json). */
  latencies: number[];
}

/** One answer of a load: its status (or error), latency, the created id, a sample of what went wrong. */
export interface Outcome {
  status: string;
  latency: number;
  id?: number;
  sample?: string;
}

async function postWithdrawal(api: LoadClient, document: string, since: number): Promise<Outcome> {
  const body = { document, idempotency_key: newUuid(), address: VALID_ADDRESS, usdtmicros: USDT, fee_choice: 'MEDIUM', network: 'MATIC' };
  try {
    const res = await api.post('/partner/v1/withdrawals/usdt', body);
    const latency = performance.now() - since;
    if (res.status === 201) return { status: '201', latency, id: (JSON.parse(res.text) as { id: number }).id };
    return { status: String(res.status), latency, sample: `${res.status} ${res.text}`.slice(0, 300) };
  } catch (error) {
    const status = `error:${(error as Error).name}`;
    return { status, latency: performance.now() - since, sample: `${status} ${(error as Error).message}`.slice(0, 300) };
  }
}

/** The answers of one run; `result` sums them up (the closed and open loops, the feed bench's reads). */
export class Tally {
  readonly latencies: number[] = [];
  readonly statusCounts: Record<string, number> = {};
  readonly ids: number[] = [];
  readonly samples: string[] = [];
  lastAnswer = 0;

  add(o: Outcome): void {
    this.latencies.push(o.latency);
    this.statusCounts[o.status] = (this.statusCounts[o.status] ?? 0) + 1;
    if (o.id !== undefined) this.ids.push(o.id);
    if (o.sample && this.samples.length < 20) this.samples.push(o.sample);
    this.lastAnswer = Math.max(this.lastAnswer, performance.now());
  }

  result(requests: number, started: number): LoadResult {
    const durationMs = (this.lastAnswer || performance.now()) - started;
    return {
      requests,
      durationMs: Math.round(durationMs),
      throughput: Math.round((requests / (durationMs / 1000)) * 10) / 10,
      statusCounts: this.statusCounts,
      latencyMs: distribution(this.latencies),
      ids: this.ids,
      non2xxSamples: this.samples,
      latencies: this.latencies,
    };
  }
}

/** `requests` POSTs from `concurrency` workers, each waiting for its answer before the next. */
export async function closedLoop(requests: number, concurrency: number, pick: Pick, stopped: () => boolean): Promise<LoadResult> {
  const tally = new Tally();
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (!stopped()) {
      const i = next++;
      if (i >= requests) return;
      const { api, document } = pick(i);
      tally.add(await postWithdrawal(api, document, performance.now()));
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return tally.result(requests, started);
}

export interface OpenLoopResult extends LoadResult {
  ratePerSecond: number;
  /** How late the generator itself sent, worst case: large values mean the bench machine, not the stack, lagged. */
  maxSendDelayMs: number;
  /** Most requests waiting for their answer at once. */
  maxInFlight: number;
}

/**
 * Calls `send(i, scheduled)` for i = 0, 1, ... at `rate` a second until `total` are sent or `stopped()`:
 * each at its scheduled time whether or not earlier ones answered (one that the generator itself sent
 * late leaves at once, its scheduled time kept, so the wait counts in its latency). Resolves when every
 * send settled. The open loop's and the feed's scheduled reads' one scheduler.
 */
export async function onSchedule(
  rate: number,
  total: number,
  stopped: () => boolean,
  send: (i: number, scheduled: number) => Promise<void>,
): Promise<{ sent: number; started: number; maxSendDelayMs: number }> {
  const interval = 1000 / rate;
  const pending: Promise<void>[] = [];
  let maxSendDelayMs = 0;
  const started = performance.now();
  let i = 0;
  while (i < total && !stopped()) {
    const now = performance.now();
    for (; i < total && started + i * interval <= now; i++) {
      const scheduled = started + i * interval;
      maxSendDelayMs = Math.max(maxSendDelayMs, now - scheduled);
      pending.push(send(i, scheduled));
    }
    await sleep(Math.max(0, started + i * interval - performance.now()));
  }
  await Promise.all(pending);
  return { sent: i, started, maxSendDelayMs };
}

/** `rate` POSTs per second for `seconds`, each sent at its scheduled time whether or not earlier ones answered. */
export async function openLoop(rate: number, seconds: number, pick: Pick, stopped: () => boolean): Promise<OpenLoopResult> {
  const tally = new Tally();
  let inFlight = 0;
  let maxInFlight = 0;
  const { sent, started, maxSendDelayMs } = await onSchedule(
    rate,
    Math.max(1, Math.round(rate * seconds)),
    stopped,
    async (i, scheduled) => {
      const { api, document } = pick(i);
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      const outcome = await postWithdrawal(api, document, scheduled);
      inFlight--;
      tally.add(outcome);
    },
  );
  return { ...tally.result(sent, started), ratePerSecond: rate, maxSendDelayMs: Math.round(maxSendDelayMs * 10) / 10, maxInFlight };
}
