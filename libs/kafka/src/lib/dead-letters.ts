import { Logger } from '@nestjs/common';
import { RpcException } from '@nestjs/microservices';
import type { KafkaMessage } from './kafka-port';
import { Counter, Gauge, Registry } from 'prom-client';
import type { Queryable } from '@partner/db';

/**
 * Thrown by an event handler's boundary (@HandleEvent) for an event that no retry can ever process (it
 * fails its contract: malformed, a required field missing). The transport parks it in the service's
 * dead-letter table instead of retrying it or committing it away (ADR 0015). An RpcException whose error
 * is itself: Nest's exception filter hands any other error on as a bare `{status, message}`, so the
 * transport could no longer tell it from a transient failure and would retry it forever.
 */
export class UnprocessableEventError extends RpcException {
  constructor(
    readonly topic: string,
    reason: string,
  ) {
    super(reason);
    this.name = 'UnprocessableEventError';
  }

  override getError(): UnprocessableEventError {
    return this;
  }
}

/** A parked message: where it was, and the bytes that came, so that a replay runs exactly what arrived (or its correction). */
export interface DeadLetter {
  id: string;
  topic: string;
  partition: number;
  offset: string;
  key: string | null;
  headers: Record<string, string>;
  value: string | null;
  reason: string;
  parkedAt: Date;
  replayRequestedAt: Date | null;
  replayedAt: Date | null;
  replayAttempts: number;
}

interface DeadLetterRow {
  id: string;
  topic: string;
  partition: number;
  kafka_offset: string;
  key: string | null;
  headers: Record<string, string>;
  value: string | null;
  reason: string;
  parked_at: Date;
  replay_requested_at: Date | null;
  replayed_at: Date | null;
  replay_attempts: number;
}

const COLUMNS =
  'id, topic, partition, kafka_offset::text AS kafka_offset, key, headers, value, reason, parked_at, replay_requested_at, replayed_at, replay_attempts';

function parseRow(row: DeadLetterRow): DeadLetter {
  return {
    id: row.id,
    topic: row.topic,
    partition: row.partition,
    offset: row.kafka_offset,
    key: row.key,
    headers: row.headers,
    value: row.value,
    reason: row.reason,
    parkedAt: row.parked_at,
    replayRequestedAt: row.replay_requested_at,
    replayedAt: row.replayed_at,
    replayAttempts: row.replay_attempts,
  };
}

/** The Kafka message a dead letter holds again, for a replay through the same handler. */
export function messageOf(letter: DeadLetter): KafkaMessage {
  return {
    key: letter.key === null ? null : Buffer.from(letter.key),
    value: letter.value === null ? null : Buffer.from(letter.value),
    headers: Object.fromEntries(Object.entries(letter.headers).map(([k, v]) => [k, Buffer.from(v)])),
    offset: letter.offset,
    timestamp: String(letter.parkedAt.getTime()),
    attributes: 0,
  };
}

/**
 * A service's dead letters: the table `dead_letters` of its own schema. `table` is the name to use on
 * `db`: unqualified on the service's database (its schema on the search_path), `"<schema>".dead_letters`
 * from the CLI. Parking is idempotent per (topic, partition, offset): a message parked, then delivered
 * again because its offset was not committed yet, is stored once.
 */
export class DeadLetterStore {
  constructor(
    private readonly db: Queryable,
    private readonly table = 'dead_letters',
  ) {}

  /** Fails when the table is missing: a service with event handlers must have one (checked at start). */
  async check(): Promise<void> {
    await this.db.query(`SELECT 1 FROM ${this.table} LIMIT 0`);
  }

  /** Parks a message; true when it was not parked already. */
  async park(topic: string, partition: number, message: KafkaMessage, reason: string): Promise<boolean> {
    const headers = Object.fromEntries(
      Object.entries(message.headers ?? {}).flatMap(([k, v]) => (v === undefined ? [] : [[k, v.toString()]])),
    );
    const { rowCount } = await this.db.query(
      `INSERT INTO ${this.table} (topic, partition, kafka_offset, key, headers, value, reason) VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (topic, partition, kafka_offset) DO NOTHING`,
      [
        topic,
        partition,
        message.offset,
        message.key?.toString() ?? null,
        JSON.stringify(headers),
        message.value?.toString() ?? null,
        reason,
      ],
    );
    return rowCount === 1;
  }

  /** Every dead letter not replayed yet (oldest first), or every one with `all`. */
  async list({ all = false }: { all?: boolean } = {}): Promise<DeadLetter[]> {
    const { rows } = await this.db.query<DeadLetterRow>(
      `SELECT ${COLUMNS} FROM ${this.table} ${all ? '' : 'WHERE replayed_at IS NULL'} ORDER BY parked_at, id`,
    );
    return rows.map(parseRow);
  }

  async get(id: string): Promise<DeadLetter | undefined> {
    const { rows } = await this.db.query<DeadLetterRow>(`SELECT ${COLUMNS} FROM ${this.table} WHERE id = $1`, [id]);
    return rows[0] ? parseRow(rows[0]) : undefined;
  }

  /** Asks the service to run these parked letters through their handler again (all parked ones without `ids`); answers the ids asked. */
  async requestReplay(ids?: string[]): Promise<string[]> {
    const { rows } = await this.db.query<{ id: string }>(
      `UPDATE ${this.table} SET replay_requested_at = now() WHERE replayed_at IS NULL ${ids ? 'AND id = ANY($1::uuid[])' : ''} RETURNING id`,
      ids ? [ids] : [],
    );
    return rows.map((r) => r.id);
  }

  /** The letters whose replay was asked for, oldest first. */
  async requested(limit: number): Promise<DeadLetter[]> {
    const { rows } = await this.db.query<DeadLetterRow>(
      `SELECT ${COLUMNS} FROM ${this.table} WHERE replay_requested_at IS NOT NULL AND replayed_at IS NULL ORDER BY parked_at, id LIMIT $1`,
      [limit],
    );
    return rows.map(parseRow);
  }

  async markReplayed(id: string): Promise<void> {
    await this.db.query(
      `UPDATE ${this.table} SET replayed_at = now(), replay_requested_at = NULL, replay_attempts = replay_attempts + 1 WHERE id = $1`,
      [id],
    );
  }

  /** The replay failed: it stays parked, with the new reason, until asked again. */
  async markReplayFailed(id: string, reason: string): Promise<void> {
    await this.db.query(
      `UPDATE ${this.table} SET replay_requested_at = NULL, replay_attempts = replay_attempts + 1, reason = $2 WHERE id = $1`,
      [id, reason],
    );
  }

  async parkedCount(): Promise<number> {
    const { rows } = await this.db.query<{ n: string }>(`SELECT count(*)::text AS n FROM ${this.table} WHERE replayed_at IS NULL`);
    return Number(rows[0].n);
  }
}

/**
 * What a service does with its dead letters: parks (counted in `dead_letters_total{topic}`, warned about
 * in the log, readiness untouched: one bad event must not stop the others), and replays those an
 * operator asked for (`npm run cli -- dead-letters replay`) through `replay`, the same handler a Kafka
 * delivery runs. `dead_letters_parked` is read from the table at scrape time.
 */
export class DeadLetters {
  private readonly logger = new Logger('DeadLetters');
  private parkedTotal?: Counter<'topic'>;

  constructor(readonly store: DeadLetterStore) {}

  registerIn(registry: Registry): void {
    this.parkedTotal = new Counter({
      name: 'dead_letters_total',
      help: 'Events parked as unprocessable, by topic',
      labelNames: ['topic'],
      registers: [registry],
    });
    const store = this.store;
    new Gauge({
      name: 'dead_letters_parked',
      help: 'Dead letters parked and not replayed yet (npm run cli -- dead-letters list)',
      registers: [registry],
      async collect() {
        this.set(await store.parkedCount().catch(() => NaN));
      },
    });
  }

  async park(topic: string, partition: number, message: KafkaMessage, reason: string): Promise<void> {
    const fresh = await this.store.park(topic, partition, message, reason);
    if (!fresh) return;
    this.parkedTotal?.inc({ topic });
    this.logger.warn(
      `Parked an unprocessable event of ${topic} (partition ${partition}, offset ${message.offset}) as a dead letter: ${reason}. List and replay: npm run cli -- dead-letters list`,
    );
  }

  /** Runs every requested replay once; a letter that fails again stays parked with its new reason. */
  async replayRequested(replay: (letter: DeadLetter) => Promise<void>, batch = 100): Promise<number> {
    const letters = await this.store.requested(batch);
    for (const letter of letters) {
      try {
        await replay(letter);
        await this.store.markReplayed(letter.id);
        this.logger.log(`Dead letter ${letter.id} of ${letter.topic} replayed`);
      } catch (error) {
        await this.store.markReplayFailed(letter.id, (error as Error).message);
        this.logger.warn(`Dead letter ${letter.id} of ${letter.topic} failed again and stays parked: ${(error as Error).message}`);
      }
    }
    return letters.length;
  }
}
