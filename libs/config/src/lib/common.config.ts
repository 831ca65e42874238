import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsNotEmpty, IsString, Matches, Max, Min } from 'class-validator';

const csv = ({ value }: { value: unknown }) =>
  typeof value === 'string' ? value.split(',').map((s) => s.trim()).filter(Boolean) : value;

/** Settings every process shares: where Kafka and PostgreSQL are, and how to log. */
export class CommonConfig {
  /** Comma-separated host:port list of the broker listener (never the controller listener). */
  @Transform(csv)
  @IsString({ each: true })
  @Matches(/^[^:]+:\d+$/, { each: true, message: 'KAFKA_BROKERS must be host:port[,host:port]' })
  KAFKA_BROKERS: string[] = ['127.0.0.1:9092'];

  /** Partitions given to every topic the project creates; bounds how many instances share the work. */
  @IsInt() @Min(1) @Max(64)
  KAFKA_PARTITIONS: number = 6;

  @IsString() @IsNotEmpty()
  @Matches(/^postgres(ql)?:\/\//, { message: 'DATABASE_URL must be a postgresql:// URL' })
  DATABASE_URL: string = 'postgresql://postgres@127.0.0.1:5432/partner';

  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL: string = 'info';

  /** How often an outbox relay looks for unpublished events when nothing woke it (the services', and the gateway's). */
  @IsInt() @Min(10) @Max(60_000)
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
   * one waits for the first event, so a service whose events are rare leaves it at 0 (README:
   * Performance). Requests are never held: their consumer fetches at once.
   */
  @IsInt() @Min(0) @Max(1000)
  KAFKA_EVENT_FETCH_WAIT_MS: number = 0;
}
