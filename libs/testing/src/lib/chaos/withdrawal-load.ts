import { ApiClient } from '../api-client';
import { newCpf, withdrawalRequest } from '../fixtures';

/**
 * The load of the fault-injection runs (`npm run chaos` and the short chaos suite of `npm test`):
 * workers sending USDT withdrawals, each answer classified as final (accepted, or refused for good) or
 * not (5xx, no answer at all), and every request without a final answer retried afterwards with its
 * own idempotency key, as a careful partner would.
 */
export interface ChaosPartner {
  id: string;
  apiKey: string;
  documents: string[];
}

export interface ChaosAnswer {
  /** 0: no HTTP answer (connection refused or reset, client timeout). */
  status: number;
  body: Record<string, unknown> | undefined;
}

export interface AcceptedWithdrawal {
  partner: ChaosPartner;
  id: number;
}

export interface LoadOptions {
  workers: number;
  /** Each worker's pause between two of its requests. */
  paceMs: number;
  /** No request is started after this many (keeps a short run's feeds and settle time bounded). */
  maxRequests?: number;
}

export interface RetryOutcome {
  /** Requests that had no final answer when the load stopped. */
  pending: number;
  calls: number;
  /** Final status of each retried request. */
  answers: Map<number, number>;
  /** Retried requests that turned out to be (or became) a withdrawal. */
  resolvedToWithdrawal: number;
  /** Requests that still had no final answer at the deadline. */
  unresolved: string[];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A call that never throws: a network failure is status 0, as the load counts it. */
export async function callGateway(gatewayUrl: string, method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<ChaosAnswer> {
  try {
    const res = await new ApiClient(gatewayUrl, headers).request<Record<string, unknown> | undefined>(method, path, body);
    return { status: res.status, body: typeof res.body === 'object' ? res.body : { text: res.body } };
  } catch {
    return { status: 0, body: undefined };
  }
}

/** Partners (sandbox), each with users holding plenty of USDT. */
export async function chaosPartners(gatewayUrl: string, adminKey: string, count: number, usersEach = 2): Promise<ChaosPartner[]> {
  const partners: ChaosPartner[] = [];
  for (let i = 0; i < count; i++) {
    const created = await callGateway(gatewayUrl, 'POST', '/sandbox/v1/partners', { 'x-admin-key': adminKey }, { name: `chaos ${i}` });
    if (created.status !== 201) throw new Error(`partner creation: ${created.status} ${JSON.stringify(created.body)}`);
    const partner: ChaosPartner = { id: String(created.body?.id), apiKey: String(created.body?.api_key), documents: [] };
    for (let u = 0; u < usersEach; u++) {
      const document = newCpf();
      const user = await callGateway(gatewayUrl, 'POST', '/sandbox/v1/users', { 'x-api-key': partner.apiKey }, { document, usdt_micros: 10_000_000_000 });
      if (user.status !== 201) throw new Error(`user creation: ${user.status} ${JSON.stringify(user.body)}`);
      partner.documents.push(document);
    }
    partners.push(partner);
  }
  return partners;
}

interface Attempt {
  partner: ChaosPartner;
  body: Record<string, unknown>;
}

export class WithdrawalLoad {
  requests = 0;
  /** By idempotency key: every request that was answered 201 or 200. */
  readonly accepted = new Map<string, AcceptedWithdrawal>();
  readonly statuses = new Map<number, number>();
  /** Answers no fault may cause: another id for a key, a 4xx for a valid request. */
  readonly unexpected: string[] = [];
  private readonly unanswered: Attempt[] = [];
  private answered = 0;
  private inFlight = 0;
  private stopped = false;
  private workers: Promise<void>[] = [];

  constructor(
    private readonly gatewayUrl: string,
    private readonly partners: ChaosPartner[],
    private readonly options: LoadOptions,
  ) {}

  get unansweredCount(): number {
    return this.unanswered.length;
  }

  start(): void {
    this.workers = Array.from({ length: this.options.workers }, (_, w) => this.worker(w));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all(this.workers);
  }

  /**
   * Resolves once `count` more answers (of any kind) have come back: proof that the load ran through a
   * fault, instead of a fixed pause. Fails after `timeoutMs`, or at once when the load has ended.
   */
  async progress(count: number, timeoutMs = 60_000): Promise<void> {
    const target = this.answered + count;
    const deadline = Date.now() + timeoutMs;
    while (this.answered < target) {
      if (this.isExhausted()) throw new Error(`the load ended before ${count} more answers (maxRequests ${this.options.maxRequests})`);
      if (Date.now() > deadline) throw new Error(`only ${count - (target - this.answered)} of ${count} answers within ${timeoutMs} ms`);
      await sleep(50);
    }
  }

  /** Retries every request without a final answer, with its own idempotency key, until it has one or the deadline passes. */
  async retryUnanswered(deadlineMs: number): Promise<RetryOutcome> {
    const pending = this.unanswered.splice(0);
    const outcome: RetryOutcome = { pending: pending.length, calls: 0, answers: new Map(), resolvedToWithdrawal: 0, unresolved: [] };
    const deadline = Date.now() + deadlineMs;
    for (const attempt of pending) {
      for (;;) {
        outcome.calls++;
        const answer = await this.send(attempt);
        if (this.isFinal(answer)) {
          this.record(attempt, answer);
          outcome.answers.set(answer.status, (outcome.answers.get(answer.status) ?? 0) + 1);
          break;
        }
        if (Date.now() > deadline) {
          outcome.unresolved.push(String(attempt.body.idempotency_key));
          break;
        }
        await sleep(500);
      }
    }
    outcome.resolvedToWithdrawal = pending.filter((a) => this.accepted.has(String(a.body.idempotency_key))).length;
    return outcome;
  }

  /** No answer will come any more: stopped, or every allowed request sent and answered. */
  private isExhausted(): boolean {
    return (this.stopped || this.requests >= (this.options.maxRequests ?? Infinity)) && this.inFlight === 0;
  }

  private async worker(w: number): Promise<void> {
    const { workers, paceMs, maxRequests = Infinity } = this.options;
    for (let n = 0; !this.stopped && this.requests < maxRequests; n++) {
      const partner = this.partners[(w + n * workers) % this.partners.length];
      const attempt: Attempt = {
        partner,
        body: withdrawalRequest(partner.documents[n % partner.documents.length], { fee_choice: 'MEDIUM' }),
      };
      this.requests++;
      this.inFlight++;
      const answer = await this.send(attempt);
      this.inFlight--;
      this.answered++;
      this.statuses.set(answer.status, (this.statuses.get(answer.status) ?? 0) + 1);
      if (this.isFinal(answer)) this.record(attempt, answer);
      else this.unanswered.push(attempt);
      await sleep(paceMs);
    }
  }

  private send(attempt: Attempt): Promise<ChaosAnswer> {
    return callGateway(this.gatewayUrl, 'POST', '/partner/v1/withdrawals/usdt', { 'x-api-key': attempt.partner.apiKey }, attempt.body);
  }

  /** 5xx and no answer are not final: the outcome is unknown to the client, who must retry with the same key. */
  private isFinal(answer: ChaosAnswer): boolean {
    return answer.status !== 0 && answer.status < 500;
  }

  private record(attempt: Attempt, answer: ChaosAnswer): void {
    const key = String(attempt.body.idempotency_key);
    if (answer.status === 201 || answer.status === 200) {
      const id = Number(answer.body?.id);
      const earlier = this.accepted.get(key);
      if (earlier && earlier.id !== id) this.unexpected.push(`key ${key} answered ids ${earlier.id} and ${id}`);
      this.accepted.set(key, { partner: attempt.partner, id });
      return;
    }
    this.unexpected.push(`key ${key}: ${answer.status} ${JSON.stringify(answer.body)}`);
  }
}
