import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsString, IsUrl, Max, Min, MinLength, ValidateIf } from 'class-validator';
import { CommonConfig } from '@partner/config';

export class GatewayConfig extends CommonConfig {
  @IsInt() @Min(0) @Max(65535)
  PORT: number = 3000;

  @IsString()
  HOST: string = '127.0.0.1';

  /** Enables the /sandbox/v1 helpers (test partners, users, balances). Never in production. */
  // From the raw value: class-transformer applies its implicit conversion first (Boolean('false') is true).
  @Transform(({ obj, key }) => obj[key] === true || obj[key] === 'true')
  @IsBoolean()
  SANDBOX: boolean = false;

  /** Admin key for /sandbox/v1/partners; required when SANDBOX is on. */
  @ValidateIf((c: GatewayConfig) => c.SANDBOX)
  @IsString() @MinLength(16, { message: 'ADMIN_API_KEY must be set (16+ characters) when SANDBOX=true' })
  ADMIN_API_KEY: string = '';

  /** How long a request waits for the service behind it before answering 503. */
  @IsInt() @Min(100) @Max(120_000)
  REQUEST_TIMEOUT_MS: number = 10_000;

  /** Largest accepted request body; larger bodies get 413. */
  @IsInt() @Min(1024) @Max(10 * 1024 * 1024)
  BODY_LIMIT_BYTES: number = 64 * 1024;

  /** How long a verified API key is trusted from memory before the database is asked again. */
  @IsInt() @Min(0) @Max(600_000)
  API_KEY_CACHE_MS: number = 30_000;

  /** Sustained requests per second each partner may make; a partner's own limit wins. */
  @IsInt() @Min(1) @Max(1_000_000)
  RATE_LIMIT_PER_SECOND: number = 50;

  /** Requests a partner may make at once before the sustained rate applies (the token bucket's size). */
  @IsInt() @Min(1) @Max(1_000_000)
  RATE_LIMIT_BURST: number = 100;

  /**
   * Where the rate limit's buckets live: `memory` (each gateway instance its own: N instances allow N ×
   * the limit; no I/O) or `postgres` (one bucket per partner shared by every instance; one short
   * statement per request). Use `postgres` as soon as more than one gateway runs.
   */
  @IsIn(['memory', 'postgres'])
  RATE_LIMIT_STORE: 'memory' | 'postgres' = 'memory';

  /**
   * Internal HTTP address (its HEALTH_PORT) of the events service. When set, feed reads (GET /events)
   * go there directly instead of through Kafka request-reply (README: "Direct queries"); empty: Kafka.
   */
  @ValidateIf((c: GatewayConfig) => c.EVENTS_QUERY_URL !== '')
  @IsUrl({ require_tld: false, protocols: ['http', 'https'], require_protocol: true }, { message: 'EVENTS_QUERY_URL must be an http(s) URL such as http://127.0.0.1:3102' })
  EVENTS_QUERY_URL: string = '';

  /** The same for the inflows service (GET /pix-in). */
  @ValidateIf((c: GatewayConfig) => c.INFLOWS_QUERY_URL !== '')
  @IsUrl({ require_tld: false, protocols: ['http', 'https'], require_protocol: true }, { message: 'INFLOWS_QUERY_URL must be an http(s) URL such as http://127.0.0.1:3105' })
  INFLOWS_QUERY_URL: string = '';
}
