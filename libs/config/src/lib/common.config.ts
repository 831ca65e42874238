import { IsIn, IsInt, IsNotEmpty, IsString, Matches, Max, Min, ValidateIf } from 'class-validator';
import { CommaSeparated, Flag, PollIntervalMs } from './config.decorators';

/** Settings every process shares: where Kafka and PostgreSQL are, and how to log. */
export class CommonConfig {
  /** Comma-separated host:port list of the broker listener (never the controller listener). */
  @CommaSeparated()
  @IsString({ each: true })
  @Matches(/^[^:]+:\d+$/, { each: true, message: 'KAFKA_BROKERS must be host:port[,host:port]' })
  KAFKA_BROKERS: string[] = ['127.0.0.1:9092'];

  /** Partitions given to every topic the project creates; bounds how many instances share the work. */
  @IsInt() @Min(1) @Max(64)
  KAFKA_PARTITIONS: number = 6;

  /**
   * Whether the app creates missing topics at start-up (convenient on a dev machine). With false it only
   * checks that every topic exists and stops, naming the missing ones, when one does not: topics are then
   * the deploy step's (`npm run kafka:topics`, Compose's `topics` service), made once with the cluster's
   * settings. docker-compose.yml sets false.
   */
  @Flag()
  KAFKA_CREATE_TOPICS: boolean = true;

  /** Copies of each partition in topics the project creates (3 on a production cluster; 1 on one broker). */
  @IsInt() @Min(1) @Max(16)
  KAFKA_REPLICATION_FACTOR: number = 1;

  /**
   * `min.insync.replicas` of those topics: with producers' acks=all, a write is refused rather than kept
   * on fewer copies than this (2 with a replication factor of 3). At most KAFKA_REPLICATION_FACTOR.
   */
  @IsInt() @Min(1) @Max(16)
  @ValidateIf((c: CommonConfig) => c.KAFKA_MIN_INSYNC_REPLICAS > c.KAFKA_REPLICATION_FACTOR)
  @IsIn([], { message: 'KAFKA_MIN_INSYNC_REPLICAS must not exceed KAFKA_REPLICATION_FACTOR' })
  KAFKA_MIN_INSYNC_REPLICAS: number = 1;

  /** TLS to the brokers (managed Kafka clusters); the system's CAs unless KAFKA_SSL_CA_FILE names a PEM file. */
  @Flag()
  KAFKA_SSL: boolean = false;

  @IsString()
  KAFKA_SSL_CA_FILE: string = '';

  /** SASL authentication to the brokers, with KAFKA_SASL_USERNAME and KAFKA_SASL_PASSWORD; empty: none. */
  @IsIn(['', 'plain', 'scram-sha-256', 'scram-sha-512'], { message: 'KAFKA_SASL_MECHANISM must be plain, scram-sha-256, scram-sha-512 or empty' })
  KAFKA_SASL_MECHANISM: '' | 'plain' | 'scram-sha-256' | 'scram-sha-512' = '';

  @ValidateIf((c: CommonConfig) => c.KAFKA_SASL_MECHANISM !== '')
  @IsString() @IsNotEmpty({ message: 'KAFKA_SASL_USERNAME is required with KAFKA_SASL_MECHANISM' })
  KAFKA_SASL_USERNAME: string = '';

  @ValidateIf((c: CommonConfig) => c.KAFKA_SASL_MECHANISM !== '')
  @IsString() @IsNotEmpty({ message: 'KAFKA_SASL_PASSWORD is required with KAFKA_SASL_MECHANISM' })
  KAFKA_SASL_PASSWORD: string = '';

  @IsString() @IsNotEmpty()
  @Matches(/^postgres(ql)?:\/\//, { message: 'DATABASE_URL must be a postgresql:// URL' })
  DATABASE_URL: string = 'postgresql://postgres@127.0.0.1:5432/partner';

  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL: string = 'info';

  /**
   * How long one of the process's Kafka consumers may stay out of its group (crashed, being re-created,
   * disconnected) before the process exits so that its supervisor starts a fresh one (ADR 0015); 0: never.
   * Longer than a broker restart takes (20-40 s here), so a restart alone never takes the apps down.
   */
  @IsInt() @Min(0) @Max(3_600_000)
  KAFKA_MAX_OUT_OF_GROUP_MS: number = 60_000;

  /** How often an outbox relay looks for unpublished events when nothing woke it (the services', and the gateway's). */
  @PollIntervalMs()
  OUTBOX_POLL_MS: number = 1_000;
}

/** Settings of the Kafka-driven services (everything but the gateway). */
export class ServiceConfig extends CommonConfig {
  /** Port of the service's own small HTTP server for /healthz and /readyz. */
  @IsInt() @Min(0) @Max(65535)
  HEALTH_PORT: number = 0;

  /** How many messages one instance handles at once, across and within partitions (one key at a time). */
  @IsInt() @Min(1) @Max(1024)
  KAFKA_CONCURRENCY: number = 64;

  /**
   * How long the broker may hold a fetch of the service's event consumer to gather more events (it
   * answers at once when 256 KB are there); 0 answers with the first event. Events are not awaited by
   * any caller, so a few milliseconds buy batches where events are many (the events service sets 25).
   * The price is paid when idle: a held fetch comes back empty every few milliseconds, where an unheld
   * one waits for the first event, so a service whose events are rare leaves it at 0 (docs/operations.md:
   * "Performance"). Requests are never held: their consumer fetches at once.
   */
  @IsInt() @Min(0) @Max(1000)
  KAFKA_EVENT_FETCH_WAIT_MS: number = 0;
}
