import { generateCnpj } from '@brazilian-utils/brazilian-utils';
import { BUSINESS_CUSTOMER_EXAMPLE, Network } from '@partner/contracts';
import { randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { getAddress } from 'viem';
import { ApiClient, FAILING_ADDRESS, newCpf, newUuid, withdrawalRequest } from '@partner/testing';

/**
 * The load of the fault-injection runs (`npm run chaos` and the short chaos suite of `npm test`): a
 * partner's whole day through the partner API, at a fixed rate (open loop), on few users whose balances
 * run out: USDT withdrawals (some refused for insufficient funds), operator credits arriving meanwhile,
 * Pix key creations and deletions, business customers, sandbox Pix inflows, partner refunds of them (a
 * devolução through the stack's Pix API test server) and feed acknowledgements.
 * Every answer is classified as final (accepted, or refused for good) or not (5xx, no answer at all);
 * afterwards every request without a final answer is retried with its own idempotency key (a business
 * customer's in its Idempotency-Key header), as a careful partner would, and what the clients were told is
 * kept for the audits (money-audit.ts, brl-audit.ts, feed-audit.ts).
 */
export interface ChaosUser {
  document: string;
  /** What the user was credited when it was made (the sandbox user's first credit). */
  initialMicros: number;
}

export interface ChaosPartner {
  id: string;
  apiKey: string;
  users: ChaosUser[];
}

export interface ChaosAnswer {
  /** 0: no HTTP answer (connection reset, client timeout; a refused connection goes to the next gateway). */
  status: number;
  body: Record<string, unknown> | undefined;
  retryAfter: string | null;
  /** With status 0: what happened instead of an answer (which gateway, reset or timeout, after how long). */
  noAnswer?: string;
}

export const OPERATIONS = ['withdrawal', 'credit', 'pix_key_create', 'pix_key_delete', 'customer', 'pix_in', 'pix_refund', 'ack'] as const;
export type Operation = (typeof OPERATIONS)[number];

export interface LoadOptions {
  /** Requests per second, all operations together (open loop: sent on time whatever the answers). */
  rate: number;
  /** In-flight cap: past it a request due is sent late rather than piling up connections. */
  maxInFlight?: number;
  /** No request is started after this many (keeps a short run's feeds and settle time bounded). */
  maxRequests?: number;
  /** Relative weight of each operation (default DEFAULT_MIX). */
  mix?: Partial<Record<Operation, number>>;
  /** Where the operator API answers (each gateway instance's operator port, ADMIN_PORT), taken in turn like the gateways: the credits go there. Default: the gateways. */
  operatorUrls?: readonly string[];
  /**
   * Shares of the withdrawals (default CHAOS_WITHDRAWAL_SHARES): on Ethereum (LOW fee), and to the
   * blacklisted address (Polygon), which the token refuses (the withdrawal ends failed, nothing moved); the
   * rest on Polygon (MEDIUM fee). Each other withdrawal goes to a fresh address of its own.
   */
  withdrawals?: { eth: number; failing: number };
}

/** Withdrawals dominate, as in production; the rest keeps every other path busy beside them. */
export const DEFAULT_MIX: Record<Operation, number> = {
  withdrawal: 45,
  credit: 10,
  pix_key_create: 10,
  pix_key_delete: 8,
  customer: 9,
  pix_in: 9,
  pix_refund: 4,
  ack: 5,
};

/** USDT micros of one USDT. */
export const USDT = 1_000_000;
/** The network fee the load's Polygon withdrawals choose (MATIC, MEDIUM): docs/api.md, "Fees". */
export const CHAOS_FEE_MICROS = 50_000;
/** The fee of each kind of withdrawal the load sends: Polygon MEDIUM, Ethereum LOW (docs/api.md, "Fees"). */
export const CHAOS_FEES: Record<Network, { choice: 'LOW' | 'MEDIUM'; micros: number }> = {
  MATIC: { choice: 'MEDIUM', micros: CHAOS_FEE_MICROS },
  ETH: { choice: 'LOW', micros: 2_000_000 },
};
export const CHAOS_WITHDRAWAL_SHARES = { eth: 0.2, failing: 0.05 };

/** A fresh EIP-55 destination: each withdrawal's own, so that a second payment to it shows on chain. */
export const freshDestination = (): `0x${string}` => getAddress(`0x${randomBytes(20).toString('hex')}`);

export interface AcceptedWithdrawal {
  partner: ChaosPartner;
  document: string;
  id: number;
  /** Amount plus fee: what it holds, and takes for good once settled. */
  micros: number;
  /** As the client asked it: what the chain audit holds the transfer against. */
  network: Network;
  address: string;
  amountMicros: number;
}

export interface AcceptedRefund {
  partner: ChaosPartner;
  endToEndId: string;
  id: string;
  cents: number;
}

export interface AcceptedCredit {
  partner: ChaosPartner;
  document: string;
  micros: number;
  key: string;
}

/** One request of the load, kept until it has a final answer. */
interface Attempt {
  op: Operation;
  partner: ChaosPartner;
  method: string;
  path: string;
  body: Record<string, unknown>;
  headers: Record<string, string>;
  /** A retry of a request whose first try had no final answer. */
  retried?: boolean;
}

/** What a window of the run (a fault, the rolling restart) saw: every answer's status, and those no fault may cause. */
export interface LoadWindow {
  label: string;
  statuses: Map<number, number>;
  /** Answers that are neither final nor a 503 carrying Retry-After (the only failure a planned restart may show). */
  failed: string[];
}

export interface RetryOutcome {
  /** Requests that had no final answer when the load stopped, by operation. */
  pending: Map<Operation, number>;
  calls: number;
  /** Final status of each retried request. */
  answers: Map<number, number>;
  /** Retried requests that turned out to be (or became) accepted. */
  resolvedToAccepted: number;
  /** Requests that still had no final answer at the deadline. */
  unresolved: string[];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const bump = <K>(m: Map<K, number>, k: K, n = 1) => m.set(k, (m.get(k) ?? 0) + n);
const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)];

/** A call that never throws: a network failure is status 0, as the load counts it. */
export async function callGateway(
  gatewayUrl: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<ChaosAnswer> {
  try {
    const res = await new ApiClient(gatewayUrl, headers).request<Record<string, unknown> | undefined>(method, path, body);
    return {
      status: res.status,
      body: typeof res.body === 'object' ? res.body : { text: res.body },
      retryAfter: res.headers.get('retry-after'),
    };
  } catch {
    return { status: 0, body: undefined, retryAfter: null };
  }
}

type Sent = ChaosAnswer | 'refused';

/**
 * One request on a connection of its own (no keep-alive: a gateway shutting down never races a reused
 * socket). 'refused' when the connection was refused: nothing reached a gateway.
 */
function sendOnce(
  base: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body: unknown,
  timeoutMs: number,
): Promise<Sent> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  const started = Date.now();
  const noAnswer = (what: string): ChaosAnswer => ({
    status: 0,
    body: undefined,
    retryAfter: null,
    noAnswer: `${what} (${base}, after ${Date.now() - started} ms)`,
  });
  return new Promise((resolve) => {
    const req = httpRequest(
      `${base}${path}`,
      {
        method,
        agent: false,
        timeout: timeoutMs,
        headers: { ...headers, ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', (error) => resolve(noAnswer(`answer cut: ${error.message}`)));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: Record<string, unknown> | undefined;
          try {
            parsed = text ? JSON.parse(text) : undefined;
          } catch {
            parsed = { text };
          }
          const retryAfter = res.headers['retry-after'];
          resolve({ status: res.statusCode ?? 0, body: parsed, retryAfter: typeof retryAfter === 'string' ? retryAfter : null });
        });
      },
    );
    req.on('timeout', () => req.destroy(new Error('client timeout')));
    req.on('error', (error: NodeJS.ErrnoException) =>
      resolve(error.code === 'ECONNREFUSED' ? 'refused' : noAnswer(error.code ?? error.message)),
    );
    req.end(payload);
  });
}

/**
 * The gateways in front of the stack, taken in turn; a refused connection goes on to the next one, as a
 * load balancer in front of several instances does (nginx's proxy_next_upstream), so that a planned
 * restart of one instance is invisible. Anything else (a reset, a timeout) is the caller's to see.
 */
export class GatewayPool {
  private turn = 0;
  /** Instances taken out of rotation for a planned stop: no new request goes to them. */
  private readonly resting = new Set<string>();
  /** Requests under way, by instance: what a balancer's connection draining waits for. */
  private readonly inFlight = new Map<string, number>();

  constructor(
    private readonly bases: readonly string[],
    private readonly timeoutMs = 30_000,
  ) {}

  async send(method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<ChaosAnswer> {
    const first = this.turn++;
    const inRotation = this.bases.filter((base) => !this.resting.has(base));
    const bases = inRotation.length ? inRotation : this.bases;
    for (let i = 0; i < bases.length; i++) {
      const base = bases[(first + i) % bases.length];
      this.inFlight.set(base, (this.inFlight.get(base) ?? 0) + 1);
      try {
        const sent = await sendOnce(base, method, path, headers, body, this.timeoutMs);
        if (sent !== 'refused') return sent;
      } finally {
        this.inFlight.set(base, (this.inFlight.get(base) ?? 1) - 1);
      }
    }
    return { status: 0, body: undefined, retryAfter: null, noAnswer: `every gateway refused the connection (${bases.join(', ')})` };
  }

  /**
   * A balancer's step before a planned stop (docs/operations.md, "What a stopping gateway does"): the
   * instance gets no new request until `restore`. Requests already sent to it are answered by its drain.
   */
  takeOutOfRotation(base: string): void {
    if (this.bases.includes(base)) this.resting.add(base);
  }

  /**
   * A balancer's connection draining (a deregistration delay): resolves once no request sent to `base` is
   * still under way, so the planned stop that follows closes a port nobody is connecting to. Bounded: a
   * request still out after `timeoutMs` is left to the instance's own drain.
   */
  async drained(base: string, timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while ((this.inFlight.get(base) ?? 0) > 0 && Date.now() < deadline) await sleep(20);
  }

  restore(base: string): void {
    this.resting.delete(base);
  }
}

/**
 * Partners (sandbox), each with `usersEach` users holding `initialMicros` USDT: few users, so that the
 * load's workers contend for the same accounts and balances run out.
 */
export async function chaosPartners(
  gatewayUrl: string,
  adminKey: string,
  count: number,
  usersEach = 3,
  initialMicros = 20 * USDT,
): Promise<ChaosPartner[]> {
  const partners: ChaosPartner[] = [];
  for (let i = 0; i < count; i++) {
    const created = await callGateway(gatewayUrl, 'POST', '/sandbox/v1/partners', { 'x-admin-key': adminKey }, { name: `chaos ${i}` });
    if (created.status !== 201) throw new Error(`partner creation: ${created.status} ${JSON.stringify(created.body)}`);
    const partner: ChaosPartner = { id: String(created.body?.id), apiKey: String(created.body?.api_key), users: [] };
    for (let u = 0; u < usersEach; u++) {
      const document = newCpf();
      const user = await callGateway(
        gatewayUrl,
        'POST',
        '/sandbox/v1/users',
        { 'x-api-key': partner.apiKey },
        // A holder's name: the load asks for Pix keys, which DICT registers with it.
        { document, usdt_micros: initialMicros, name: 'Usuário de Teste' },
      );
      if (user.status !== 201) throw new Error(`user creation: ${user.status} ${JSON.stringify(user.body)}`);
      partner.users.push({ document, initialMicros });
    }
    partners.push(partner);
  }
  return partners;
}

/** What the clients were told, path by path: the audits' expectations. */
export class LoadLedger {
  /** By idempotency key: every withdrawal answered 201 or 200. */
  readonly withdrawals = new Map<string, AcceptedWithdrawal>();
  /** Withdrawals refused for good because the balance did not cover them (422 insufficient_funds). */
  insufficient = 0;
  /** Withdrawals refused for good by a limit the operator set (422 limit_exceeded). */
  limited = 0;
  /** By idempotency key: every operator credit answered 201 or 200. */
  readonly credits = new Map<string, AcceptedCredit>();
  /** Idempotency keys of Pix key creations answered 202 (each made a key), by partner. */
  readonly keyCreates = new Map<string, Set<string>>();
  /** Idempotency keys of Pix key deletions answered 202 (each started one key's deletion), by partner. */
  readonly keyDeletes = new Map<string, Set<string>>();
  /** Customer ids answered 201, or 200 to a retry replaying its Idempotency-Key, by partner; and the id each key was answered with. */
  readonly customers = new Map<string, Set<string>>();
  readonly customerKeys = new Map<string, string>();
  /** End-to-end ids answered 202, by partner; and Pix-in requests that got no final answer (not retried: the route has no idempotency key). */
  readonly inflows = new Map<string, Set<string>>();
  readonly inflowsUnknown = new Map<string, number>();
  /** By idempotency key: every refund answered 201 or 200 (a replay answers the same refund). */
  readonly refunds = new Map<string, AcceptedRefund>();
  /** Refunds refused for good: by their code (refund_exceeds_amount, insufficient_funds, pix_in_not_refundable, not_found). */
  readonly refundsRefused = new Map<string, number>();
  /** Event ids acknowledged (200 without them in not_found), by partner. */
  readonly acknowledged = new Map<string, Set<string>>();

  setOf(m: Map<string, Set<string>>, partner: ChaosPartner): Set<string> {
    const s = m.get(partner.id) ?? new Set<string>();
    m.set(partner.id, s);
    return s;
  }
}

export class PartnerLoad {
  requests = 0;
  readonly byOperation = new Map<Operation, number>();
  readonly statuses = new Map<number, number>();
  readonly ledger = new LoadLedger();
  /** Answers no fault may cause: another id for a key, a 4xx for a valid request, a 500. */
  readonly unexpected: string[] = [];
  readonly windows: LoadWindow[] = [];
  /** Requests sent later than due because maxInFlight requests were still waiting. */
  late = 0;
  private readonly unanswered: Attempt[] = [];
  private answered = 0;
  private inFlight = 0;
  private stopped = false;
  private pacer: Promise<void> | undefined;
  private readonly gateways: GatewayPool;
  private readonly operators: GatewayPool;
  private readonly weights: [Operation, number][];
  private window: LoadWindow | undefined;
  private startedAt = 0;

  constructor(
    gatewayUrls: string | readonly string[],
    private readonly partners: ChaosPartner[],
    private readonly adminKey: string,
    private readonly options: LoadOptions,
  ) {
    this.gateways = new GatewayPool(typeof gatewayUrls === 'string' ? [gatewayUrls] : gatewayUrls);
    this.operators = options.operatorUrls?.length ? new GatewayPool(options.operatorUrls) : this.gateways;
    const mix = { ...DEFAULT_MIX, ...options.mix };
    this.weights = OPERATIONS.map((op): [Operation, number] => [op, mix[op]]).filter(([, w]) => w > 0);
  }

  get unansweredCount(): number {
    return this.unanswered.length;
  }

  /** Requests answered per second since the start. */
  get achievedRate(): number {
    return this.answered / Math.max(1, (Date.now() - this.startedAt) / 1000);
  }

  start(): void {
    this.startedAt = Date.now();
    this.pacer = this.pace();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.pacer;
    while (this.inFlight > 0) await sleep(20);
  }

  /** A planned stop of the gateway instance at these URLs (its API and operator ports): the load sends it nothing new until `restore`. */
  /** Takes the instances out of rotation, then waits for the requests already sent to them (connection draining). */
  async takeOutOfRotation(...urls: string[]): Promise<void> {
    const pools = [...new Set([this.gateways, this.operators])];
    for (const url of urls) for (const pool of pools) pool.takeOutOfRotation(url);
    await Promise.all(urls.flatMap((url) => pools.map((pool) => pool.drained(url))));
  }

  restore(...urls: string[]): void {
    for (const url of urls) for (const pool of new Set([this.gateways, this.operators])) pool.restore(url);
  }

  /** From now on, answers are also counted in a window of this name (until the next `openWindow` or `closeWindow`). */
  openWindow(label: string): LoadWindow {
    this.window = { label, statuses: new Map(), failed: [] };
    this.windows.push(this.window);
    return this.window;
  }

  closeWindow(): void {
    this.window = undefined;
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

  /**
   * Resolves at the first final answer to arrive after now: the stack serves again. Used to time a
   * recovery from the moment a fault was undone.
   */
  async firstSuccess(timeoutMs: number): Promise<void> {
    const target = this.finalAnswers + 1;
    const deadline = Date.now() + timeoutMs;
    while (this.finalAnswers < target) {
      if (Date.now() > deadline) throw new Error(`no final answer within ${timeoutMs} ms`);
      await sleep(20);
    }
  }

  private finalAnswers = 0;

  /**
   * Retries every request without a final answer, with its own idempotency key, until it has one or the
   * deadline passes. Pix-in is sent without a key, as by a partner that gives none (docs/api.md, Sandbox): its
   * unanswered requests are not sent again but counted, and the audit allows that many inflows no client was
   * told of, never more (one call is one payment whatever the broker redelivers).
   */
  async retryUnanswered(deadlineMs: number): Promise<RetryOutcome> {
    const pending = this.unanswered.splice(0);
    const outcome: RetryOutcome = { pending: new Map(), calls: 0, answers: new Map(), resolvedToAccepted: 0, unresolved: [] };
    const deadline = Date.now() + deadlineMs;
    for (const attempt of pending) {
      bump(outcome.pending, attempt.op);
      if (attempt.op === 'pix_in') {
        bump(this.ledger.inflowsUnknown, attempt.partner.id);
        continue;
      }
      attempt.retried = true;
      for (;;) {
        outcome.calls++;
        const answer = await this.send(attempt);
        if (isFinal(answer)) {
          if (this.record(attempt, answer)) outcome.resolvedToAccepted++;
          bump(outcome.answers, answer.status);
          break;
        }
        if (Date.now() > deadline) {
          outcome.unresolved.push(`${attempt.op} ${attempt.method} ${attempt.path} ${JSON.stringify(attempt.body).slice(0, 120)}`);
          break;
        }
        await sleep(500);
      }
    }
    return outcome;
  }

  /** No answer will come any more: stopped, or every allowed request sent and answered. */
  private isExhausted(): boolean {
    return (this.stopped || this.requests >= (this.options.maxRequests ?? Infinity)) && this.inFlight === 0;
  }

  /** Sends `rate` requests a second, on time whatever the answers (up to maxInFlight waiting). */
  private async pace(): Promise<void> {
    const { rate, maxInFlight = 256, maxRequests = Infinity } = this.options;
    let sent = 0;
    while (!this.stopped && this.requests < maxRequests) {
      const due = Math.floor(((Date.now() - this.startedAt) / 1000) * rate);
      while (sent < due && this.requests < maxRequests) {
        if (this.inFlight >= maxInFlight) {
          this.late += due - sent;
          sent = due; // skipped, not queued: an open loop does not catch up in a burst
          break;
        }
        sent++;
        void this.fire(this.nextAttempt());
      }
      await sleep(5);
    }
  }

  private async fire(attempt: Attempt): Promise<void> {
    // The clock time it was sent, as the chaos log prints it, to line a failure up with the step under way.
    const sentAt = new Date().toISOString().slice(11, 19);
    this.requests++;
    bump(this.byOperation, attempt.op);
    this.inFlight++;
    const answer = await this.send(attempt);
    this.inFlight--;
    this.answered++;
    bump(this.statuses, answer.status);
    if (this.window) {
      bump(this.window.statuses, answer.status);
      if (!isFinal(answer) && !(answer.status === 503 && answer.retryAfter)) {
        this.window.failed.push(
          `${attempt.op} sent ${sentAt}: ${answer.status === 0 ? `no answer: ${answer.noAnswer ?? 'unknown'}` : answer.status}${answer.status === 503 ? ' without Retry-After' : ''}`,
        );
      }
    }
    if (isFinal(answer)) {
      this.finalAnswers++;
      this.record(attempt, answer);
    } else {
      if (answer.status !== 0 && answer.status !== 503)
        this.unexpected.push(`${attempt.op}: ${answer.status} ${JSON.stringify(answer.body)} (a fault must be a 503, never another 5xx)`);
      this.unanswered.push(attempt);
    }
  }

  private nextAttempt(): Attempt {
    let roll = Math.random() * this.weights.reduce((sum, [, w]) => sum + w, 0);
    let op = this.weights[0][0];
    for (const [candidate, w] of this.weights) {
      roll -= w;
      if (roll < 0) {
        op = candidate;
        break;
      }
    }
    const partner = pick(this.partners);
    const document = pick(partner.users).document;
    const asPartner = { 'x-api-key': partner.apiKey };
    // A refund needs an inflow: until the partner has one, a Pix-in instead.
    if (op === 'pix_refund' && !this.ledger.inflows.get(partner.id)?.size) op = 'pix_in';
    switch (op) {
      case 'withdrawal': {
        // 1 to 4 USDT: a user's 20 runs out after a handful, so credits and refusals both matter.
        const shares = this.options.withdrawals ?? CHAOS_WITHDRAWAL_SHARES;
        const kind = Math.random();
        const network: Network = kind < shares.failing || kind >= shares.failing + shares.eth ? 'MATIC' : 'ETH';
        const body = withdrawalRequest(document, {
          usdtmicros: (1 + Math.floor(Math.random() * 4)) * USDT,
          fee_choice: CHAOS_FEES[network].choice,
          network,
          address: kind < shares.failing ? FAILING_ADDRESS : freshDestination(),
        });
        return { op, partner, method: 'POST', path: '/partner/v1/withdrawals/usdt', body, headers: asPartner };
      }
      case 'credit':
        return {
          op,
          partner,
          method: 'POST',
          path: `/admin/v1/partners/${partner.id}/users/${document}/credits`,
          body: {
            usdt_micros: (2 + Math.floor(Math.random() * 9)) * USDT,
            idempotency_key: `chaos-${newUuid()}`,
            reference: 'chaos deposit',
          },
          headers: { 'x-admin-key': this.adminKey },
        };
      case 'pix_key_create':
        return {
          op,
          partner,
          method: 'POST',
          path: '/partner/v1/pix-key',
          body: { document, idempotency_key: newUuid() },
          headers: asPartner,
        };
      case 'pix_key_delete':
        return {
          op,
          partner,
          method: 'DELETE',
          path: `/partner/v1/pix-key/${document}`,
          body: { idempotency_key: newUuid() },
          headers: asPartner,
        };
      case 'customer': {
        const cnpj = generateCnpj({ version: 2 });
        return {
          op,
          partner,
          method: 'POST',
          path: '/partner/v1/customers/business',
          body: { ...BUSINESS_CUSTOMER_EXAMPLE, cnpj, metadata: { external_id: cnpj } },
          // Its key travels in a header, sent again with every retry of this registration.
          headers: { ...asPartner, 'idempotency-key': `chaos-${newUuid()}` },
        };
      }
      case 'pix_in':
        return {
          op,
          partner,
          method: 'POST',
          path: '/sandbox/v1/pix-in',
          body: { document, amount_cents: 100 + Math.floor(Math.random() * 100_000) },
          headers: asPartner,
        };
      case 'pix_refund': {
        // One of the partner's Pix inflows (credited by now or not), for up to 300 BRL: some exceed what is left
        // of it or the user's balance, and are refused.
        const endToEndId = pick([...(this.ledger.inflows.get(partner.id) ?? [])]);
        return {
          op,
          partner,
          method: 'POST',
          path: `/partner/v1/pix-in/${endToEndId}/refunds`,
          body: { idempotency_key: newUuid(), amount_cents: 100 + Math.floor(Math.random() * 30_000), reason: 'chaos refund' },
          headers: asPartner,
        };
      }
      case 'ack':
        // The ids are chosen when it is sent (the partner's undelivered events of the moment).
        return { op, partner, method: 'POST', path: '/partner/v1/events/ack', body: {}, headers: asPartner };
    }
  }

  private async send(attempt: Attempt): Promise<ChaosAnswer> {
    if (attempt.op === 'ack' && !attempt.body.ids) {
      const page = await this.gateways.send('GET', '/partner/v1/events?delivered=false&limit=50', attempt.headers);
      const ids = Array.isArray(page.body?.events) ? (page.body.events as { id: string }[]).map((e) => e.id) : [];
      // Nothing to acknowledge (or the read failed): the answer of the read stands for this request.
      if (ids.length === 0) return page.status === 200 ? { status: 200, body: { acknowledged: 0, not_found: [] }, retryAfter: null } : page;
      attempt.body = { ids };
    }
    return (attempt.op === 'credit' ? this.operators : this.gateways).send(attempt.method, attempt.path, attempt.headers, attempt.body);
  }

  /** Keeps what a final answer told the client; answers whether the request was accepted. */
  private record(attempt: Attempt, answer: ChaosAnswer): boolean {
    const { op, partner, body } = attempt;
    const key = String(body.idempotency_key);
    const code = [answer.body?.error, answer.body?.status].find((c): c is string => typeof c === 'string') ?? '';
    const unexpected = () => {
      this.unexpected.push(`${op}${attempt.retried ? ' (retry)' : ''}: ${answer.status} ${JSON.stringify(answer.body)}`);
      return false;
    };
    const ledger = this.ledger;
    switch (op) {
      case 'withdrawal': {
        if (answer.status === 422 && code === 'insufficient_funds') {
          ledger.insufficient++;
          return false;
        }
        if (answer.status === 422 && code === 'limit_exceeded') {
          ledger.limited++;
          return false;
        }
        if (answer.status !== 201 && answer.status !== 200) return unexpected();
        const id = Number(answer.body?.id);
        const earlier = ledger.withdrawals.get(key);
        if (earlier && earlier.id !== id) this.unexpected.push(`withdrawal key ${key} answered ids ${earlier.id} and ${id}`);
        const network = body.network as Network;
        ledger.withdrawals.set(key, {
          partner,
          document: String(body.document),
          id,
          micros: Number(body.usdtmicros) + CHAOS_FEES[network].micros,
          network,
          address: String(body.address),
          amountMicros: Number(body.usdtmicros),
        });
        return true;
      }
      case 'credit': {
        if (answer.status !== 201 && answer.status !== 200) return unexpected();
        ledger.credits.set(key, { partner, document: attempt.path.split('/')[6], micros: Number(body.usdt_micros), key });
        return true;
      }
      case 'pix_key_create':
        if (answer.status === 202) {
          ledger.setOf(ledger.keyCreates, partner).add(key);
          return true;
        }
        return answer.status === 409 && code === 'already_exists' ? false : unexpected();
      case 'pix_key_delete':
        if (answer.status === 202) {
          ledger.setOf(ledger.keyDeletes, partner).add(key);
          return true;
        }
        return (answer.status === 200 && (code === 'already_sent' || code === 'succeeded')) ||
          (answer.status === 404 && code === 'not_found')
          ? false
          : unexpected();
      case 'customer': {
        // 201 registered now; 200 the replay of the try whose answer was lost (the CNPJ is fresh: never a 409).
        if (answer.status !== 201 && answer.status !== 200) return unexpected();
        const customerKey = attempt.headers['idempotency-key'];
        const id = String(answer.body?.id);
        const earlier = ledger.customerKeys.get(customerKey);
        if (earlier !== undefined && earlier !== id) this.unexpected.push(`customer key ${customerKey} answered ids ${earlier} and ${id}`);
        ledger.customerKeys.set(customerKey, id);
        // A set: a customer told twice (its first answer, then a replay) counts once.
        ledger.setOf(ledger.customers, partner).add(id);
        return true;
      }
      case 'pix_in':
        if (answer.status !== 202) return unexpected();
        ledger.setOf(ledger.inflows, partner).add(String(answer.body?.end_to_end_id));
        return true;
      case 'pix_refund': {
        if ((answer.status === 404 && code === 'not_found') || (answer.status === 409 && code === 'pix_in_not_refundable')) {
          bump(ledger.refundsRefused, code);
          return false;
        }
        if (answer.status === 422 && ['refund_exceeds_amount', 'insufficient_funds'].includes(code)) {
          bump(ledger.refundsRefused, code);
          return false;
        }
        if (answer.status !== 201 && answer.status !== 200) return unexpected();
        const id = String(answer.body?.id);
        const earlier = ledger.refunds.get(key);
        if (earlier && earlier.id !== id) this.unexpected.push(`refund key ${key} answered ids ${earlier.id} and ${id}`);
        ledger.refunds.set(key, { partner, endToEndId: attempt.path.split('/')[4], id, cents: Number(body.amount_cents) });
        return true;
      }
      case 'ack': {
        const notFound = answer.body?.not_found;
        if (answer.status !== 200 || !Array.isArray(notFound) || notFound.length > 0) return unexpected();
        const acked = ledger.setOf(ledger.acknowledged, partner);
        for (const id of (body.ids as string[] | undefined) ?? []) acked.add(id);
        return true;
      }
    }
  }
}

/** 5xx and no answer are not final: the outcome is unknown to the client, who must retry with the same key. */
function isFinal(answer: ChaosAnswer): boolean {
  return answer.status !== 0 && answer.status < 500;
}
