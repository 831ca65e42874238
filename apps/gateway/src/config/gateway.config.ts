import { hostname } from 'node:os';
import { IsIn, IsString, IsUrl, MinLength, registerDecorator, ValidateIf, ValidationArguments } from 'class-validator';
import { CommonConfig, Flag, IntInRange } from '@partner/config';
import { GATEWAY, MAX_CREDIT_MICROS } from '@partner/contracts';
import { OPERATOR_KEY_CACHE_MS } from '@partner/operator-access';

/** Sandbox: a key is required, 16+ characters. Production: none (CLI-made keys) or 32+ characters. */
const adminKeyProblem = (key: unknown, sandbox: boolean): string | undefined => {
  const length = typeof key === 'string' ? key.length : 0;
  if (sandbox) return length >= 16 ? undefined : 'ADMIN_API_KEY must be set (16+ characters) when SANDBOX=true';
  return length === 0 || length >= 32
    ? undefined
    : 'ADMIN_API_KEY is too weak for SANDBOX=false: use 32+ random characters (e.g. `openssl rand -base64 32`), or leave it empty and create operator keys with `npm run cli -- operator-key create --name <who>`';
};

function IsStrongEnoughAdminKey(): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isStrongEnoughAdminKey',
      target: target.constructor,
      propertyName: propertyName as string,
      options: { message: (args: ValidationArguments) => adminKeyProblem(args.value, (args.object as GatewayConfig).SANDBOX) ?? '' },
      validator: {
        validate: (value: unknown, args?: ValidationArguments) =>
          !adminKeyProblem(value, Boolean((args?.object as GatewayConfig | undefined)?.SANDBOX)),
      },
    });
}

export class GatewayConfig extends CommonConfig {
  @IntInRange(0, 65535)
  PORT: number = GATEWAY.port;

  @IsString()
  HOST: string = '127.0.0.1';

  /**
   * The internal operator port (docs/adr/0019-production-safe-by-default.md): the operator API (/admin/v1),
   * /readyz and /metrics answer on it only, never on PORT, which a load balancer exposes to partners; PORT
   * answers the partner API, /docs and /healthz only. Bound on HOST: never route the public to it.
   * 0: everything on PORT, for a single process on a developer's machine or an in-process test only.
   */
  @IntInRange(0, 65535)
  ADMIN_PORT: number = GATEWAY.adminPort;

  /** Enables the /sandbox/v1 helpers (test partners, users, balances). Never in production. */
  @Flag()
  SANDBOX: boolean = false;

  /**
   * An operator key (X-Admin-Key of /admin/v1 and /sandbox/v1/partners). At start its SHA-256 is added to
   * gateway.operator_keys (name `environment`) when absent; keys created by the CLI work alongside it.
   * Required with SANDBOX=true (16+ characters). Outside the sandbox it may be left empty once an operator
   * key exists in the table (the gateway refuses to start with none at all), and when set it must be
   * 32+ characters.
   */
  @IsString()
  @IsStrongEnoughAdminKey()
  ADMIN_API_KEY: string = '';

  /**
   * The secret shared with the Pix provider: POST /provider/v2/pix/inflows takes a notification only when
   * X-Pix-Signature is its HMAC-SHA256 (docs/api.md: "Pix provider ingestion"). Optional: left empty,
   * the route answers every call 401 invalid_signature. When set, 32+ characters.
   */
  @ValidateIf((config: GatewayConfig) => config.PIX_PROVIDER_WEBHOOK_SECRET !== '')
  @IsString()
  @MinLength(32, {
    message:
      'PIX_PROVIDER_WEBHOOK_SECRET is too weak: use 32+ random characters (e.g. `openssl rand -hex 32`), or leave it empty to refuse every notification',
  })
  PIX_PROVIDER_WEBHOOK_SECRET: string = '';

  /**
   * The secret before PIX_PROVIDER_WEBHOOK_SECRET, still taken while the provider moves to the new one: a
   * rotation without refused notifications (docs/operations.md, "Secrets and their rotation"). Empty once done.
   */
  @ValidateIf((config: GatewayConfig) => config.PIX_PROVIDER_WEBHOOK_SECRET_PREVIOUS !== '')
  @IsString()
  @MinLength(32, { message: 'PIX_PROVIDER_WEBHOOK_SECRET_PREVIOUS must be the previous 32+ character secret, or empty' })
  PIX_PROVIDER_WEBHOOK_SECRET_PREVIOUS: string = '';

  /** How long a request waits for the service behind it before answering 503. */
  @IntInRange(100, 120_000)
  REQUEST_TIMEOUT_MS: number = 10_000;

  /**
   * How many proxies in front of the gateway set `X-Forwarded-For` (each appending the address it was
   * called from): the client address, which the unknown-key throttle keys on, is taken that many hops in
   * from the connection's peer. 0 (no proxy): the peer itself, and `X-Forwarded-For` is ignored, since a
   * client could write anything there. Compose's nginx is one hop (and overwrites the header).
   */
  @IntInRange(0, 10)
  TRUST_PROXY_HOPS: number = 0;

  /**
   * A client's time to send a request's line and headers; past it the connection is answered 408 and closed
   * (a slow-headers client holds no connection for long). At most HTTP_RECEIVE_TIMEOUT_MS.
   */
  @IntInRange(1_000, 120_000)
  HTTP_HEADERS_TIMEOUT_MS: number = 10_000;

  /** A client's time to send a whole request, body included; past it, 408 and the connection closed. */
  @IntInRange(1_000, 300_000)
  HTTP_RECEIVE_TIMEOUT_MS: number = 30_000;

  /**
   * How long an idle kept-alive connection stays open. Longer than the balancers' usual 60 s idle timeout,
   * so that a balancer never reuses a connection the gateway has just closed (Fastify's default, 72 s).
   */
  @IntInRange(1_000, 600_000)
  HTTP_KEEP_ALIVE_TIMEOUT_MS: number = 72_000;

  /** Largest accepted request body; larger bodies get 413. */
  @IntInRange(1024, 10 * 1024 * 1024)
  BODY_LIMIT_BYTES: number = 64 * 1024;

  /** How long a verified API key is trusted from memory before the database is asked again. */
  @IntInRange(0, 600_000)
  API_KEY_CACHE_MS: number = 30_000;

  /**
   * How long a key the database did not know is answered 401 from memory (up to 100,000 such keys): a
   * flood repeating made-up keys costs no lookup. A key is never known before it is created (its secret
   * is made at creation), and the instance that creates one forgets it here; 0 turns this off.
   */
  @IntInRange(0, 600_000)
  API_KEY_NEGATIVE_CACHE_MS: number = 10_000;

  /**
   * Database lookups of unknown keys (partner or operator) a client address may cause per second before
   * its next unknown keys are answered 429 with Retry-After, without a lookup (FailedAuthThrottle).
   */
  @IntInRange(1, 1_000_000)
  AUTH_FAILURES_PER_SECOND: number = 5;

  /** Lookups of unknown keys an address may cause at once before AUTH_FAILURES_PER_SECOND applies. */
  @IntInRange(1, 1_000_000)
  AUTH_FAILURE_BURST: number = 20;

  /**
   * How long a verified operator key is trusted from memory; a revocation broadcast drops it at once
   * (ADR 0017), so this bounds only a revocation whose broadcast is lost. `npm test` raises it, so that
   * only the broadcast can explain a revoked key refused in time.
   */
  @IntInRange(0, 600_000)
  OPERATOR_KEY_CACHE_MS: number = OPERATOR_KEY_CACHE_MS;

  /**
   * Dual control: an operator credit above this many USDT micros (default 10,000 USDT) is not applied until a
   * second operator key approves it (POST /admin/v1/approvals/{id}); at or below it, one key credits.
   */
  @IntInRange(1, MAX_CREDIT_MICROS)
  CREDIT_APPROVAL_THRESHOLD_USDT_MICROS: number = 10_000_000_000;

  /** Sustained requests per second each partner may make; a partner's own limit wins. */
  @IntInRange(1, 1_000_000)
  RATE_LIMIT_PER_SECOND: number = 50;

  /** Requests a partner may make at once before the sustained rate applies (the token bucket's size). */
  @IntInRange(1, 1_000_000)
  RATE_LIMIT_BURST: number = 100;

  /** Sustained requests per second each operator key may make on /admin/v1. */
  @IntInRange(1, 1_000_000)
  ADMIN_RATE_LIMIT_PER_SECOND: number = 20;

  /** Requests an operator key may make at once on /admin/v1 before the sustained rate applies. */
  @IntInRange(1, 1_000_000)
  ADMIN_RATE_LIMIT_BURST: number = 40;

  /**
   * Where the rate limit's buckets live: `memory` (each gateway instance its own: N instances allow N ×
   * the limit; no I/O) or `postgres` (one bucket per partner shared by every instance; one short
   * statement per request). Use `postgres` as soon as more than one gateway runs.
   */
  @IsIn(['memory', 'postgres'])
  RATE_LIMIT_STORE: 'memory' | 'postgres' = 'memory';

  /**
   * Internal HTTP address (its HEALTH_PORT) of the events service. When set, feed reads (GET /events)
   * go there directly instead of through Kafka request-reply (docs/architecture.md: "Direct queries"); empty: Kafka.
   */
  @ValidateIf((c: GatewayConfig) => c.EVENTS_QUERY_URL !== '')
  @IsUrl(
    { require_tld: false, protocols: ['http', 'https'], require_protocol: true },
    { message: 'EVENTS_QUERY_URL must be an http(s) URL such as http://127.0.0.1:3102' },
  )
  EVENTS_QUERY_URL: string = '';

  /** The same for the inflows service (GET /pix-in). */
  @ValidateIf((c: GatewayConfig) => c.INFLOWS_QUERY_URL !== '')
  @IsUrl(
    { require_tld: false, protocols: ['http', 'https'], require_protocol: true },
    { message: 'INFLOWS_QUERY_URL must be an http(s) URL such as http://127.0.0.1:3105' },
  )
  INFLOWS_QUERY_URL: string = '';

  /**
   * Direct replies (docs/architecture.md: "Direct replies"): services send their replies to this instance over HTTP,
   * on an internal listener, instead of through its reply topic (which stays the fallback). Only where
   * every service can reach the instance at DIRECT_REPLY_HOST.
   */
  @Flag()
  DIRECT_REPLIES: boolean = false;

  /** Port of the direct-reply listener, bound on HOST; 0 takes any free port (each instance its own). */
  @IntInRange(0, 65535)
  DIRECT_REPLY_PORT: number = 0;

  /** The name services reach this instance by; empty: HOST, or the machine's hostname when HOST is 0.0.0.0 or ::. */
  @IsString()
  DIRECT_REPLY_HOST: string = '';
}

/** The name services reach this instance's direct-reply listener by (DIRECT_REPLY_HOST, or derived from HOST). */
export const directReplyHostOf = (config: GatewayConfig): string =>
  config.DIRECT_REPLY_HOST || (['0.0.0.0', '::', ''].includes(config.HOST) ? hostname() : config.HOST);
