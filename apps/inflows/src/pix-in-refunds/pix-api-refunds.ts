import { readFileSync } from 'node:fs';
import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { Agent } from 'undici';
import { callCounterparty, CounterpartyAnswer } from '@partner/runtime';
import { errorText } from '@partner/tracing';
import { InflowsConfig } from '../config/inflows.config';
import { ProviderDevolucao, PixRefunds, RefundCall, RefundRef } from './pix-refunds.port';

/** The Pix API's money format (`\d{1,10}\.\d{2}`): reais with two decimals, from integer cents, no float in between. */
export const valorOf = (cents: bigint): string => `${cents / 100n}.${(cents % 100n).toString().padStart(2, '0')}`;

const STATUSES = ['EM_PROCESSAMENTO', 'DEVOLVIDO', 'NAO_REALIZADO'] as const;
const RTR_ID = /^[a-zA-Z0-9]{32}$/;
const MAX_ANSWER_BYTES = 64 * 1024;
/** A token is renewed this long before it expires, so no call carries one that lapses on the way. */
const TOKEN_MARGIN_MS = 30_000;

/**
 * The Pix provider's Pix API (the Central Bank's document, vendor/bacen-pix-api, version 2.9.0), for the
 * returns of received Pix: `PUT /pix/{e2eid}/devolucao/{id}` asks one (body `DevolucaoSolicitada`: `valor`,
 * `natureza` ORIGINAL, `descricao` the partner's reason), `GET` the same path reads it back. Authenticated as
 * the document's security scheme says, with an OAuth2 client-credentials token (scopes `pix.write pix.read`),
 * over mutual TLS when PIX_API_CLIENT_CERT_FILE is set. Answers are believed only when they are the
 * document's `Devolucao` for the devolução asked; anything else is `unavailable`, never a guess.
 */
@Injectable()
export class PixApiRefunds extends PixRefunds implements OnModuleDestroy {
  private readonly logger = new Logger('PixApiRefunds');
  private readonly agent: Agent;
  private readonly base: string;
  private readonly tokenUrl: string;
  private token?: { value: string; expiresAt: number };

  constructor(private readonly config: InflowsConfig) {
    super();
    this.base = config.PIX_API_URL.replace(/\/+$/, '');
    this.tokenUrl = config.PIX_API_TOKEN_URL || `${this.base}/oauth/token`;
    const file = (path: string) => (path ? readFileSync(path, 'utf8') : undefined);
    this.agent = new Agent({
      connect: { cert: file(config.PIX_API_CLIENT_CERT_FILE), key: file(config.PIX_API_CLIENT_KEY_FILE), ca: file(config.PIX_API_CA_FILE) },
      connections: 4,
    });
  }

  async onModuleDestroy(): Promise<void> {
    await this.agent.close();
  }

  request(ref: RefundRef, amountCents: bigint, description: string): Promise<RefundCall> {
    // ORIGINAL: a return of the Pix itself (MD06 in the pacs.004), not of a Pix Saque/Troco's cash part.
    const body = JSON.stringify({ valor: valorOf(amountCents), natureza: 'ORIGINAL', descricao: description });
    return this.call('PUT', ref, body, 201);
  }

  read(ref: RefundRef): Promise<RefundCall> {
    return this.call('GET', ref, undefined, 200);
  }

  private async call(method: 'PUT' | 'GET', ref: RefundRef, body: string | undefined, success: number): Promise<RefundCall> {
    const path = `/pix/${encodeURIComponent(ref.endToEndId)}/devolucao/${encodeURIComponent(ref.providerId)}`;
    let token: string;
    try {
      token = await this.accessToken();
    } catch (error) {
      return this.unavailable(method, path, `no access token: ${errorText(error)}`);
    }
    let answer: CounterpartyAnswer;
    try {
      answer = await callCounterparty(`${this.base}${path}`, {
        method,
        dispatcher: this.agent,
        headers: { accept: 'application/json', authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        body,
        timeoutMs: this.config.PIX_API_TIMEOUT_MS,
        maxBytes: MAX_ANSWER_BYTES,
      });
    } catch (error) {
      return this.unavailable(method, path, errorText(error));
    }
    const { status, text } = answer;
    // A token the provider no longer takes (revoked, rotated): a new one next time.
    if (status === 401 || status === 403) this.token = undefined;
    if (status === success) {
      const devolucao = devolucaoOf(text, ref.providerId);
      return devolucao
        ? { outcome: 'answered', devolucao }
        : this.unavailable(method, path, `HTTP ${status} with an answer that is not the Devolucao asked`);
    }
    if (method === 'GET' && status === 404) return { outcome: 'not_found' };
    // 400 PixDevolucaoInvalida (over the amount, a reused id, past 90 days) and 404 PixNaoEncontrado: final.
    if (method === 'PUT' && (status === 400 || status === 404)) return { outcome: 'refused', reason: refusalOf(status, text) };
    return {
      ...this.unavailable(method, path, `HTTP ${status}${problemTitle(text)}`),
      ...(answer.retryAfterMs === undefined ? {} : { retryAfterMs: answer.retryAfterMs }),
    };
  }

  private unavailable(method: string, path: string, reason: string): RefundCall & { outcome: 'unavailable' } {
    this.logger.warn(`${method} ${path}: the Pix API did not answer usefully: ${reason}`);
    return { outcome: 'unavailable', reason };
  }

  /** The client-credentials token, asked again shortly before it expires (RFC 6749 section 4.4, client secret by HTTP Basic). */
  private async accessToken(): Promise<string> {
    if (this.token && this.token.expiresAt - TOKEN_MARGIN_MS > Date.now()) return this.token.value;
    const basic = Buffer.from(
      `${encodeURIComponent(this.config.PIX_API_CLIENT_ID)}:${encodeURIComponent(this.config.PIX_API_CLIENT_SECRET)}`,
    ).toString('base64');
    const { status, text } = await callCounterparty(this.tokenUrl, {
      method: 'POST',
      dispatcher: this.agent,
      headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams({ grant_type: 'client_credentials', scope: 'pix.write pix.read' }).toString(),
      timeoutMs: this.config.PIX_API_TIMEOUT_MS,
      maxBytes: MAX_ANSWER_BYTES,
    });
    if (status !== 200) throw new Error(`token endpoint answered HTTP ${status}`);
    const answer = JSON.parse(text) as { access_token?: unknown; expires_in?: unknown };
    if (typeof answer.access_token !== 'string' || answer.access_token === '') throw new Error('token endpoint answered no access_token');
    const ttlS = typeof answer.expires_in === 'number' && answer.expires_in > 0 ? answer.expires_in : 300;
    this.token = { value: answer.access_token, expiresAt: Date.now() + ttlS * 1000 };
    return this.token.value;
  }
}

/** The document's `Devolucao` for the id asked, or null: a status it lists and a 32-character RtrId. */
function devolucaoOf(text: string, providerId: string): ProviderDevolucao | null {
  let value: { id?: unknown; rtrId?: unknown; status?: unknown; motivo?: unknown };
  try {
    value = JSON.parse(text) as typeof value;
  } catch {
    return null;
  }
  const status = STATUSES.find((s) => s === value.status);
  if (value.id !== providerId || !status || typeof value.rtrId !== 'string' || !RTR_ID.test(value.rtrId)) return null;
  return { status, rtrId: value.rtrId, ...(typeof value.motivo === 'string' ? { motivo: value.motivo.slice(0, 140) } : {}) };
}

/** A refusal's words for the partner: the problem's title and its violations' reasons (`Problema.violacoes[].razao`). */
function refusalOf(status: number, text: string): string {
  try {
    const problem = JSON.parse(text) as { title?: unknown; violacoes?: { razao?: unknown }[] };
    const reasons = (problem.violacoes ?? []).map((v) => v.razao).filter((r): r is string => typeof r === 'string');
    const title = typeof problem.title === 'string' ? problem.title : `HTTP ${status}`;
    return `the Pix provider refused the return: ${[title, ...reasons].join('; ')}`.slice(0, 500);
  } catch {
    return `the Pix provider refused the return (HTTP ${status})`;
  }
}

function problemTitle(text: string): string {
  try {
    const title = (JSON.parse(text) as { title?: unknown }).title;
    return typeof title === 'string' ? ` (${title.slice(0, 200)})` : '';
  } catch {
    return '';
  }
}
