import { isIP } from 'node:net';
import {
  IsIn,
  type ValidationArguments,
  IsNotEmpty,
  IsString,
  Matches,
  MinLength,
  Validate,
  ValidateIf,
  ValidatorConstraint,
  ValidatorConstraintInterface,
} from 'class-validator';
import { CommaSeparated, Flag, IntInRange, PollIntervalMs } from './config.decorators';

/** NODE_ENVs where INTERNAL_SECRET may be left empty (internal ports then trust their callers); unset counts as development, as in Node. */
const TRUSTING_ENVIRONMENTS = ['', 'development', 'test'];

/** Why `entry` is not an IP address, a CIDR block or a host name (REPLY_TARGETS), or undefined when it is one. */
export function hostOrBlockProblem(entry: string): string | undefined {
  const [address, bits, extra] = entry.split('/');
  const family = isIP(address);
  const what = `${entry} is not an IP address, a CIDR block or a host name`;
  if (extra !== undefined) return what;
  if (family === 0)
    return bits === undefined && /^[A-Za-z0-9][A-Za-z0-9-]{0,62}(\.[A-Za-z0-9][A-Za-z0-9-]{0,62})*$/.test(address) ? undefined : what;
  const max = family === 4 ? 32 : 128;
  return bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= max) ? undefined : `${entry}: a prefix length is 0-${max}`;
}

@ValidatorConstraint({ name: 'hostsOrBlocks' })
class HostsOrBlocks implements ValidatorConstraintInterface {
  validate(entries: unknown): boolean {
    return (
      Array.isArray(entries) && entries.length > 0 && entries.every((e) => typeof e === 'string' && hostOrBlockProblem(e) === undefined)
    );
  }
  defaultMessage(): string {
    return 'REPLY_TARGETS must be a comma-separated list of IP addresses, CIDR blocks (10.0.0.0/8) and host names';
  }
}

/** The Kafka clients libs/kafka can run on (KAFKA_CLIENT; docs/adr/0027-kafkajs-risk-and-a-way-out.md). */
export const KAFKA_CLIENTS = ['kafkajs', 'platformatic'] as const;
export type KafkaClientName = (typeof KAFKA_CLIENTS)[number];

/**
 * KAFKA_CLIENT=platformatic is for trials: a production process refuses it (ADR 0027: after a kill -9 of the
 * broker its consumers were seen re-joined and fetching nothing).
 */
@ValidatorConstraint({ name: 'kafkaClientForEnvironment' })
class KafkaClientForEnvironment implements ValidatorConstraintInterface {
  validate(client: unknown, args: ValidationArguments): boolean {
    return client !== 'platformatic' || (args.object as CommonConfig).NODE_ENV !== 'production';
  }
  defaultMessage(): string {
    return 'KAFKA_CLIENT=platformatic is refused with NODE_ENV=production: it is for trials only (its consumers did not recover from a broker crash, docs/adr/0027-kafkajs-risk-and-a-way-out.md); use kafkajs';
  }
}

/** Settings every process shares: where Kafka and PostgreSQL are, and how to log. */
export class CommonConfig {
  /**
   * The Kafka client library every producer, consumer and admin of the process uses: kafkajs (the design's,
   * the default) or @platformatic/kafka, an opt-in alternative for trials, refused with NODE_ENV=production
   * (docs/adr/0027-kafkajs-risk-and-a-way-out.md).
   */
  @IsIn(KAFKA_CLIENTS, { message: `KAFKA_CLIENT must be one of ${KAFKA_CLIENTS.join(', ')}` })
  @Validate(KafkaClientForEnvironment)
  KAFKA_CLIENT: KafkaClientName = 'kafkajs';

  /** Comma-separated host:port list of the broker listener (never the controller listener). */
  @CommaSeparated()
  @IsString({ each: true })
  @Matches(/^[^:]+:\d+$/, { each: true, message: 'KAFKA_BROKERS must be host:port[,host:port]' })
  KAFKA_BROKERS: string[] = ['127.0.0.1:9092'];

  /** Partitions given to every topic the project creates; bounds how many instances share the work. */
  @IntInRange(1, 64)
  KAFKA_PARTITIONS: number = 6;

  /**
   * Whether the app creates missing topics at start-up (convenient on a dev machine). With false it only
   * checks that every topic exists and stops, naming the missing ones, when one does not: topics are then
   * the deploy step's (`npm run kafka:setup`, Compose's `kafka-setup` service), made once with the cluster's
   * settings. docker-compose.yml sets false.
   */
  @Flag()
  KAFKA_CREATE_TOPICS: boolean = true;

  /** Copies of each partition in topics the project creates (3 on a production cluster; 1 on one broker). */
  @IntInRange(1, 16)
  KAFKA_REPLICATION_FACTOR: number = 1;

  /**
   * `min.insync.replicas` of those topics: with producers' acks=all, a write is refused rather than kept
   * on fewer copies than this (2 with a replication factor of 3). At most KAFKA_REPLICATION_FACTOR.
   */
  @IntInRange(1, 16)
  @ValidateIf((c: CommonConfig) => c.KAFKA_MIN_INSYNC_REPLICAS > c.KAFKA_REPLICATION_FACTOR)
  @IsIn([], { message: 'KAFKA_MIN_INSYNC_REPLICAS must not exceed KAFKA_REPLICATION_FACTOR' })
  KAFKA_MIN_INSYNC_REPLICAS: number = 1;

  /** TLS to the brokers (managed Kafka clusters); the system's CAs unless KAFKA_SSL_CA_FILE names a PEM file. */
  @Flag()
  KAFKA_SSL: boolean = false;

  @IsString()
  KAFKA_SSL_CA_FILE: string = '';

  /** SASL authentication to the brokers, with KAFKA_SASL_USERNAME and KAFKA_SASL_PASSWORD; empty: none. */
  @IsIn(['', 'plain', 'scram-sha-256', 'scram-sha-512'], {
    message: 'KAFKA_SASL_MECHANISM must be plain, scram-sha-256, scram-sha-512 or empty',
  })
  KAFKA_SASL_MECHANISM: '' | 'plain' | 'scram-sha-256' | 'scram-sha-512' = '';

  @ValidateIf((c: CommonConfig) => c.KAFKA_SASL_MECHANISM !== '')
  @IsString()
  @IsNotEmpty({ message: 'KAFKA_SASL_USERNAME is required with KAFKA_SASL_MECHANISM' })
  KAFKA_SASL_USERNAME: string = '';

  @ValidateIf((c: CommonConfig) => c.KAFKA_SASL_MECHANISM !== '')
  @IsString()
  @IsNotEmpty({ message: 'KAFKA_SASL_PASSWORD is required with KAFKA_SASL_MECHANISM' })
  KAFKA_SASL_PASSWORD: string = '';

  @IsString()
  @IsNotEmpty()
  @Matches(/^postgres(ql)?:\/\//, { message: 'DATABASE_URL must be a postgresql:// URL' })
  DATABASE_URL: string = 'postgresql://postgres@127.0.0.1:5432/partner';

  /**
   * The database password, when DATABASE_URL carries none: what Compose gives as a file
   * (DATABASE_PASSWORD_FILE), so that no environment holds it. Empty: the URL's own, if any.
   */
  @IsString()
  DATABASE_PASSWORD: string = '';

  /**
   * How long a query waits for one of the pool's connections (or for a new one to open) before it fails:
   * the gateway then answers 503 with Retry-After, a service's handler fails (its caller gets 503). Never
   * an endless queue behind an exhausted pool.
   */
  @IntInRange(100, 60_000)
  DATABASE_ACQUIRE_TIMEOUT_MS: number = 3_000;

  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL: string = 'info';

  /**
   * How long one of the process's Kafka consumers may stay out of its group (crashed, being re-created,
   * disconnected) before the process exits so that its supervisor starts a fresh one (ADR 0015); 0: never.
   * Longer than a broker restart takes (20-40 s here), so a restart alone never takes the apps down.
   */
  @IntInRange(0, 3_600_000)
  KAFKA_MAX_OUT_OF_GROUP_MS: number = 60_000;

  /** How often an outbox relay looks for unpublished events when nothing woke it (the services', and the gateway's). */
  @PollIntervalMs()
  OUTBOX_POLL_MS: number = 1_000;

  /** `production` in the images (Dockerfile); `development` under `npm start`; Jest sets `test`. */
  @IsString()
  NODE_ENV: string = '';

  /**
   * The secret the gateway signs its requests to services' internal ports with (HMAC-SHA256; docs/adr/0017-internal-trust.md),
   * the same in every app of a deployment. Required (32+ characters) unless NODE_ENV is development, test or unset;
   * `npm start`, the tests, chaos and the bench generate one per stack. Empty: internal ports trust their callers.
   */
  @ValidateIf((c: CommonConfig) => c.INTERNAL_SECRET !== '' || !TRUSTING_ENVIRONMENTS.includes(c.NODE_ENV))
  @IsString()
  @MinLength(32, {
    message:
      'INTERNAL_SECRET is required outside development and test: 32 or more characters, the same in every app (e.g. openssl rand -hex 32)',
  })
  INTERNAL_SECRET: string = '';
}

/** Settings of the Kafka-driven services (everything but the gateway). */
export class ServiceConfig extends CommonConfig {
  /** Port of the service's own small HTTP server for /healthz and /readyz. */
  @IntInRange(0, 65535)
  HEALTH_PORT: number = 0;

  /** How many messages one instance handles at once, across and within partitions (one key at a time). */
  @IntInRange(1, 1024)
  KAFKA_CONCURRENCY: number = 64;

  /**
   * How long the broker may hold a fetch of the service's event consumer to gather more events (it
   * answers at once when 16 KB are there); 0 answers with the first event. Events are not awaited by
   * any caller, so a few milliseconds buy batches where events are many (the events service sets 100).
   * The price is paid when idle: a held fetch comes back empty every few milliseconds, where an unheld
   * one waits for the first event, so a service whose events are rare leaves it at 0 (no idle CPU spent
   * on empty fetches). Requests are never held: their consumer fetches at once.
   */
  @IntInRange(0, 1000)
  KAFKA_EVENT_FETCH_WAIT_MS: number = 0;

  /**
   * Where the service may send a direct reply (docs/architecture.md: "Direct replies"): IP addresses, CIDR blocks
   * and host names (matched as written, never resolved). A request naming a `reply_url` elsewhere is answered
   * on its reply topic instead. Loopback by default, where `npm start` runs the gateway.
   */
  @CommaSeparated((entry) => entry.toLowerCase())
  @Validate(HostsOrBlocks)
  REPLY_TARGETS: string[] = ['127.0.0.0/8', '::1/128', 'localhost'];
}
