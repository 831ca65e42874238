import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { PixApiDocument } from './pix-api-document';

/** A devolução's status, as the document names them. */
export type DevolucaoStatus = 'EM_PROCESSAMENTO' | 'DEVOLVIDO' | 'NAO_REALIZADO';

/** A devolução as this server holds it (and answers it: the document's `Devolucao`). */
export interface Devolucao {
  id: string;
  rtrId: string;
  valor: string;
  natureza?: string;
  descricao?: string;
  horario: { solicitacao: string; liquidacao?: string };
  status: DevolucaoStatus;
  motivo?: string;
}

/** A received Pix this server knows: its amount in cents and when it settled (the 90-day window runs from there). */
interface ReceivedPix {
  cents: number;
  settledAt: Date;
  devolucoes: Map<string, Devolucao>;
}

export interface PixApiTestServerOptions {
  port?: number;
  host?: string;
  /** OAuth2 client credentials the token endpoint accepts (HTTP Basic, RFC 6749 section 2.3.1). */
  clientId: string;
  clientSecret: string;
  /** The provider's ISPB, which starts every RtrId it issues. */
  ispb?: string;
  /**
   * `seeded` (specs): only the Pix a spec declared with `receive` exist; any other e2eid is 404.
   * `any` (the local stacks): any well-formed e2eid is a Pix received today of at most R$ 100,000,000.00 (the
   * stacks' simulated Pix never pass through here); the service's own rules still bound its refunds.
   */
  pix: 'seeded' | 'any';
  /** How long a devolução stays EM_PROCESSAMENTO before it is DEVOLVIDO (or NAO_REALIZADO when so told). */
  settleAfterMs?: number;
  log?: (line: string) => void;
}

/** One request as received, for specs: its method, path, and the document's violations found in it (none when it conformed). */
export interface ReceivedRequest {
  method: string;
  path: string;
  body: unknown;
  violations: string[];
}

const TOKEN_TTL_S = 3600;
const WINDOW_MS = 90 * 24 * 60 * 60 * 1000;
const ANY_PIX_CENTS = 10_000_000_000;

/**
 * The Pix API of a Pix service provider (vendor/bacen-pix-api, version 2.9.0), for what a receiving
 * institution needs of it to return a received Pix: `PUT` and `GET /pix/{e2eid}/devolucao/{id}`, behind the
 * OAuth2 client-credentials token the document's security scheme names (`POST /oauth/token`, scopes
 * `pix.write`, `pix.read`). Every request's path and body is checked against the document's schemas and its
 * stated violations (`PixDevolucaoInvalida`: the amount over what is left of the Pix, an id used before for
 * that Pix, past 90 days from the settlement); a nonconforming request is answered 400 with the document's
 * `Problema`, and kept in `requests` so a spec can assert the adapter sent none. A devolução is answered
 * EM_PROCESSAMENTO, then after `settleAfterMs` becomes DEVOLVIDO, or NAO_REALIZADO with a `motivo` when a
 * spec asked for that (`refuseNextOf`). Faults: `unavailableNext(n)` answers the next n calls 503;
 * `delayAnswersOf(e2eid, ms)` holds a Pix's devolução answers that long (a slow provider).
 */
export class PixApiTestServer {
  readonly requests: ReceivedRequest[] = [];
  private readonly document = new PixApiDocument();
  private readonly pix = new Map<string, ReceivedPix>();
  private readonly tokens = new Map<string, { scopes: string[]; expiresAt: number }>();
  private readonly refusals = new Map<string, string>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private unavailable = 0;
  private readonly lostAnswers = new Set<string>();
  private readonly delays = new Map<string, number>();
  private server?: Server;

  constructor(private readonly options: PixApiTestServerOptions) {}

  get url(): string {
    const address = this.server?.address() as AddressInfo | null;
    if (!address) throw new Error('the Pix API test server is not listening');
    return `http://${this.options.host ?? '127.0.0.1'}:${address.port}`;
  }

  async listen(): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve, reject) => {
      this.server?.once('error', reject);
      this.server?.listen(this.options.port ?? 0, this.options.host ?? '127.0.0.1', resolve);
    });
    return this;
  }

  async close(): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** A Pix this provider received (seeded mode): its amount and when it settled. */
  receive(e2eid: string, cents: number, settledAt = new Date()): void {
    this.pix.set(e2eid, { cents, settledAt, devolucoes: new Map() });
  }

  /** The devoluções of a Pix, as held now. */
  devolucoesOf(e2eid: string): Devolucao[] {
    return [...(this.pix.get(e2eid)?.devolucoes.values() ?? [])];
  }

  /** The next devolução asked of this Pix ends NAO_REALIZADO with this `motivo` instead of DEVOLVIDO. */
  refuseNextOf(e2eid: string, motivo: string): void {
    this.refusals.set(e2eid, motivo);
  }

  /** The next `n` calls (token included) are answered 503 ServicoIndisponivel. */
  unavailableNext(n: number): void {
    this.unavailable = Math.max(0, this.unavailable + n);
  }

  /** How many calls are still to be answered 503. */
  pendingUnavailable(): number {
    return this.unavailable;
  }

  /** The next devolução asked of this Pix is made, but its answer lost: 503, as a timeout or a dropped connection looks. */
  loseNextAnswerOf(e2eid: string): void {
    this.lostAnswers.add(e2eid);
  }

  /** Every answer to a request on this Pix's devoluções waits `ms` first (received at once, answered late); 0: none. */
  delayAnswersOf(e2eid: string, ms: number): void {
    if (ms > 0) this.delays.set(e2eid, ms);
    else this.delays.delete(e2eid);
  }

  /** Every violation of the document found in the requests received so far. */
  violations(): string[] {
    return this.requests.flatMap((r) => r.violations.map((v) => `${r.method} ${r.path}: ${v}`));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const text = await readBody(req);
    const path = (req.url ?? '/').split('?')[0];
    const method = req.method ?? 'GET';
    const record: ReceivedRequest = { method, path, body: undefined, violations: [] };
    this.requests.push(record);
    const answer = (status: number, body: unknown, type = 'application/json') => {
      this.options.log?.(`${method} ${path} -> ${status}`);
      res.writeHead(status, { 'content-type': type });
      res.end(JSON.stringify(body));
    };
    if (this.unavailable > 0) {
      this.unavailable -= 1;
      return answer(503, problem(503, 'ServicoIndisponivel', 'Serviço indisponível'), 'application/problem+json');
    }
    if (method === 'POST' && path === '/oauth/token') return this.token(req, text, answer);

    const match = /^\/pix\/([^/]+)\/devolucao\/([^/]+)$/.exec(path);
    if (!match) return answer(404, problem(404, 'NaoEncontrado', 'Não encontrado'), 'application/problem+json');
    const scope = method === 'PUT' ? 'pix.write' : 'pix.read';
    if (!this.authorized(req, scope)) return answer(403, problem(403, 'AcessoNegado', 'Acesso negado'), 'application/problem+json');

    const [e2eid, id] = [decodeURIComponent(match[1]), decodeURIComponent(match[2])];
    const delay = this.delays.get(e2eid);
    if (delay !== undefined) await new Promise((resolve) => setTimeout(resolve, delay));
    record.violations.push(...this.pathViolations(e2eid, id));
    if (method === 'GET') {
      if (record.violations.length > 0) return answer(400, invalid('PixDevolucaoInvalida', record.violations), 'application/problem+json');
      const found = this.pix.get(e2eid)?.devolucoes.get(id);
      return found
        ? answer(200, this.checked(found, record))
        : answer(404, problem(404, 'PixDevolucaoNaoEncontrada', 'Devolução não encontrada'), 'application/problem+json');
    }
    if (method !== 'PUT') return answer(405, problem(405, 'MetodoNaoPermitido', 'Método não permitido'), 'application/problem+json');
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      record.violations.push('the body is not JSON');
    }
    record.body = body;
    record.violations.push(...this.document.violations('DevolucaoSolicitada', body));
    if (record.violations.length > 0) return answer(400, invalid('PixDevolucaoInvalida', record.violations), 'application/problem+json');
    return this.devolve(e2eid, id, body as { valor: string; natureza?: string; descricao?: string }, answer, record);
  }

  private devolve(
    e2eid: string,
    id: string,
    request: { valor: string; natureza?: string; descricao?: string },
    answer: (status: number, body: unknown, type?: string) => void,
    record: ReceivedRequest,
  ): void {
    const pix = this.pix.get(e2eid) ?? (this.options.pix === 'any' ? this.anyPix(e2eid) : undefined);
    if (!pix) return answer(404, problem(404, 'PixNaoEncontrado', 'Pix não encontrado'), 'application/problem+json');
    const cents = centsOf(request.valor);
    const devolved = [...pix.devolucoes.values()].filter((d) => d.status !== 'NAO_REALIZADO').reduce((sum, d) => sum + centsOf(d.valor), 0);
    const violation = pix.devolucoes.has(id)
      ? `a devolução ${id} já foi solicitada para o e2eid ${e2eid}`
      : devolved + cents > pix.cents
        ? `a devolução de ${request.valor} excederia o valor do pix (${formatValor(pix.cents)}, ${formatValor(devolved)} já devolvidos)`
        : Date.now() - pix.settledAt.getTime() > WINDOW_MS
          ? `o pix ${e2eid} foi liquidado há mais de 90 dias`
          : null;
    // Semantic refusals the document lists, not schema violations: the adapter's request was well formed.
    if (violation) return answer(400, invalid('PixDevolucaoInvalida', [violation]), 'application/problem+json');
    const devolucao: Devolucao = {
      id,
      rtrId: this.rtrId(),
      valor: request.valor,
      ...(request.natureza === undefined ? {} : { natureza: request.natureza }),
      ...(request.descricao === undefined ? {} : { descricao: request.descricao }),
      horario: { solicitacao: new Date().toISOString() },
      status: 'EM_PROCESSAMENTO',
    };
    pix.devolucoes.set(id, devolucao);
    const refusal = this.refusals.get(e2eid);
    this.refusals.delete(e2eid);
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      if (refusal === undefined)
        Object.assign(devolucao, { status: 'DEVOLVIDO', horario: { ...devolucao.horario, liquidacao: new Date().toISOString() } });
      else Object.assign(devolucao, { status: 'NAO_REALIZADO', motivo: refusal });
    }, this.options.settleAfterMs ?? 500);
    this.timers.add(timer);
    if (this.lostAnswers.delete(e2eid)) {
      return answer(503, problem(503, 'ServicoIndisponivel', 'Serviço indisponível'), 'application/problem+json');
    }
    answer(201, this.checked(devolucao, record));
  }

  private token(req: IncomingMessage, text: string, answer: (status: number, body: unknown, type?: string) => void): void {
    const form = new URLSearchParams(text);
    const [id, secret] = basicCredentials(req.headers.authorization);
    if (form.get('grant_type') !== 'client_credentials') return answer(400, { error: 'unsupported_grant_type' });
    if (id !== this.options.clientId || !sameSecret(secret, this.options.clientSecret)) return answer(401, { error: 'invalid_client' });
    const scopes = (form.get('scope') ?? 'pix.read pix.write').split(' ').filter(Boolean);
    const accessToken = randomBytes(24).toString('base64url');
    this.tokens.set(accessToken, { scopes, expiresAt: Date.now() + TOKEN_TTL_S * 1000 });
    answer(200, { access_token: accessToken, token_type: 'Bearer', expires_in: TOKEN_TTL_S, scope: scopes.join(' ') });
  }

  private authorized(req: IncomingMessage, scope: string): boolean {
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    const granted = token === undefined ? undefined : this.tokens.get(token);
    return granted !== undefined && granted.expiresAt > Date.now() && granted.scopes.includes(scope);
  }

  private pathViolations(e2eid: string, id: string): string[] {
    // The document's patterns are unanchored; its EndToEndId states 32 characters, DevolucaoId 1 to 35.
    const anchored = [
      ...(/^[a-zA-Z0-9]{32}$/.test(e2eid) ? [] : [`e2eid ${e2eid} is not 32 letters and digits`]),
      ...(/^[a-zA-Z0-9]{1,35}$/.test(id) ? [] : [`id ${id} is not 1 to 35 letters and digits`]),
    ];
    return [...this.document.violations('EndToEndId', e2eid), ...this.document.violations('DevolucaoId', id), ...anchored];
  }

  /** An answer, checked against the document's `Devolucao` too: a spec sees this server break its own document. */
  private checked(devolucao: Devolucao, record: ReceivedRequest): Devolucao {
    record.violations.push(...this.document.violations('Devolucao', devolucao).map((v) => `answer: ${v}`));
    return devolucao;
  }

  private anyPix(e2eid: string): ReceivedPix {
    const pix: ReceivedPix = { cents: ANY_PIX_CENTS, settledAt: new Date(), devolucoes: new Map() };
    this.pix.set(e2eid, pix);
    return pix;
  }

  /** A ReturnIdentification as the SPI makes them: D, the ISPB, yyyyMMddHHmm, 11 letters and digits. */
  private rtrId(): string {
    const minute = new Date().toISOString().replace(/[-:T]/g, '').slice(0, 12);
    const tail = randomBytes(16)
      .toString('base64')
      .replace(/[^a-zA-Z0-9]/g, '')
      .padEnd(11, '0')
      .slice(0, 11);
    return `D${this.options.ispb ?? '99999999'}${minute}${tail}`;
  }
}

export async function startPixApiTestServer(options: PixApiTestServerOptions): Promise<PixApiTestServer> {
  return new PixApiTestServer(options).listen();
}

const problem = (status: number, type: string, title: string, detail?: string) => ({
  type: `https://pix.bcb.gov.br/api/v2/error/${type}`,
  title,
  status,
  ...(detail === undefined ? {} : { detail }),
});

const invalid = (type: string, violations: string[]) => ({
  ...problem(
    400,
    type,
    'Devolução inválida',
    'A requisição que busca criar uma devolução não respeita o schema ou está semanticamente errada.',
  ),
  violacoes: violations.map((razao) => ({ razao, propriedade: 'devolucao' })),
});

const centsOf = (valor: string): number => {
  const [units, decimals] = valor.split('.');
  return Number(units) * 100 + Number(decimals);
};

const formatValor = (cents: number): string => `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;

function basicCredentials(header: string | undefined): [string | undefined, string | undefined] {
  const encoded = /^Basic (.+)$/.exec(header ?? '')?.[1];
  if (!encoded) return [undefined, undefined];
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  // RFC 6749 section 2.3.1: each part is form-urlencoded before it is joined.
  return colon < 0 ? [undefined, undefined] : [decodeURIComponent(decoded.slice(0, colon)), decodeURIComponent(decoded.slice(colon + 1))];
}

function sameSecret(given: string | undefined, expected: string): boolean {
  const a = Buffer.from(given ?? '');
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
