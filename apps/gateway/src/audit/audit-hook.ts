import { Logger } from '@nestjs/common';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { textProblem } from '@partner/validation';
import type { FastifyReply, FastifyRequest, HTTPMethods, onSendAsyncHookHandler } from 'fastify';
import { errorBody } from '../http/error-body';
import { MAX_PATH_PARAMETER_LENGTH, URI_TOO_LONG } from '../http/framework-errors';
import type { OperatorRequest } from '../operators/admin-key.guard';
import type { Operator } from '../operators/operator-key.repository';
import { clientAddressOf } from '../operators/operator-name';
import { AuditEntry, AuditLogRepository } from './audit-log.repository';

/** The operator API's path prefix: every call under it is audited. */
export const OPERATOR_PREFIX = '/admin/v1';

/** The routes of operator paths that match no operator route: they answer 404 like any unknown path, audited. */
const CATCH_ALL = [OPERATOR_PREFIX, `${OPERATOR_PREFIX}/*`];
const METHODS: HTTPMethods[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/** Path parameters are kept as sent (a refused call's malformed ones too), bounded; text PostgreSQL cannot store (a NUL) is not kept. */
const param = (params: unknown, name: string): string | null => {
  const value = (params as Record<string, unknown> | undefined)?.[name];
  const kept = typeof value === 'string' ? value.slice(0, 128) : null;
  return kept !== null && textProblem(kept) ? null : kept;
};

/** What an audit entry reads of a request: the call, its path parameters and body, the route it matched, the client, the operator the guard put on it. */
export type AuditedRequest = Pick<FastifyRequest, 'method' | 'id' | 'params'> & {
  routeOptions?: { url?: string };
  operator?: Operator;
  body?: unknown;
  ip?: string;
};

/** The amount a call asked to move: a body's usdt_micros when it is a whole number of micros (a refused call's too). */
const amountOf = (body: unknown): number | null => {
  const micros = (body as Record<string, unknown> | null | undefined)?.usdt_micros;
  return Number.isSafeInteger(micros) ? (micros as number) : null;
};

/** The audit entry of an answered operator call. */
export function auditEntryOf(request: AuditedRequest, reply: Pick<FastifyReply, 'statusCode'>): AuditEntry {
  const operator = request.operator;
  const route = request.routeOptions?.url;
  return {
    operatorKeyId: operator?.id ?? null,
    operatorKeyPrefix: operator?.prefix ?? null,
    method: request.method,
    route: route && !CATCH_ALL.includes(route) ? route : 'unmatched',
    partnerId: param(request.params, 'partner_id'),
    keyId: param(request.params, 'key_id'),
    document: param(request.params, 'document'),
    statusCode: reply.statusCode,
    requestId: request.id,
    usdtMicros: amountOf(request.body),
    clientAddress: clientAddressOf(request),
  };
}

/**
 * A call refused because it came without a valid operator key (401, or 429 once its address made too many
 * failed attempts): it did nothing, and a flood of them must not cost a row each. FailedAuthThrottle
 * counts them on /metrics (`gateway_auth_failures_total{api="operator"}`) instead.
 */
const refusedForWantOfAKey = (request: FastifyRequest, reply: FastifyReply): boolean =>
  !(request as OperatorRequest).operator && (reply.statusCode === 401 || reply.statusCode === 429);

/**
 * Writes every authenticated /admin/v1 call to the audit log, whatever its outcome (400, 404, 429 included),
 * before its answer leaves: an onSend hook, awaited, so a client that reads the log right after its call
 * finds it. The hook is attached to the operator routes only (as they are registered), so partner
 * requests do not run it at all; unknown /admin/v1 paths get a catch-all route of their own for the same
 * reason, and a URL Fastify refuses before routing (bad percent-encoding) is written through
 * `beforeFrameworkError`. A failed write is logged as an error and the answer still goes out: the call
 * has happened (a partner created, a key revoked), and hiding its outcome would make the caller retry it.
 */
export class OperatorCallAudit {
  private readonly logger = new Logger('AuditLog');
  private audit?: AuditLogRepository;

  /** Call before the app is initialised (routes are registered then). */
  install(app: NestFastifyApplication): void {
    this.audit = app.get(AuditLogRepository, { strict: false });
    const record: onSendAsyncHookHandler = async (request, reply, payload) => {
      await this.write(request, reply);
      return payload;
    };
    const fastify = app.getHttpAdapter().getInstance();
    fastify.addHook('onRoute', (route) => {
      if (!isOperatorPath(route.url)) return;
      const existing = route.onSend ?? [];
      route.onSend = [...(Array.isArray(existing) ? existing : [existing]), record];
    });
    const notFound = (request: FastifyRequest, reply: FastifyReply) =>
      hasOverlongSegment(request.url)
        ? reply.status(URI_TOO_LONG.status).send(errorBody(request, URI_TOO_LONG))
        : reply.status(404).send(errorBody(request, { code: 'not_found', message: `Cannot ${request.method} ${request.url}` }));
    for (const url of CATCH_ALL) fastify.route({ method: METHODS, url, exposeHeadRoute: false, handler: notFound });
  }

  /** For the `frameworkErrors` handler: the answers Fastify gives before routing, to operator paths. */
  readonly beforeFrameworkError = async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    if (isOperatorPath(request.url)) await this.write(request, reply);
  };

  private async write(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    if (!this.audit || refusedForWantOfAKey(request, reply)) return;
    const entry = auditEntryOf(request, reply);
    try {
      await this.audit.append(entry);
    } catch (error) {
      this.logger.error(
        `audit entry not written (${entry.method} ${entry.route} ${entry.statusCode}, request ${entry.requestId}): ${(error as Error).message}`,
      );
    }
  }
}

/**
 * The catch-all matches where the router would have refused a parameter as too long (414 before routing on
 * the partner API): an operator path with such a segment answers the same, whichever route it was meant for.
 */
const hasOverlongSegment = (url: string): boolean =>
  url
    .split('?')[0]
    .split('/')
    .some((segment) => segment.length > MAX_PATH_PARAMETER_LENGTH);

const isOperatorPath = (url: string): boolean =>
  url === OPERATOR_PREFIX || url.startsWith(`${OPERATOR_PREFIX}/`) || url.startsWith(`${OPERATOR_PREFIX}?`);
