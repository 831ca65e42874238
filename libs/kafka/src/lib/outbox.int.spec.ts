import { createKafka } from './kafkajs-client';
import { kafkaConnectionFromEnv, retried } from './kafka-client';
import { kafkaClientFromEnv } from './kafka-client.factory';
import { loadConfig, CommonConfig } from '@partner/config';
import { PartnerId, Topics, WithdrawalStateChangedEvent } from '@partner/contracts';
import { outboxMessage, runStatement, UnitOfWork } from '@partner/db';
import { pollUntil, requireEnv, withdrawalStateChanged, testPartnerId } from '@partner/testing';
import { randomBytes } from 'node:crypto';
import { Admin, Consumer } from 'kafkajs';
import { Pool } from 'pg';
import { KafkaConnection } from './kafka.options';
import { MessageBus } from './message-bus';
import { eventOrigin, OutboxRelay } from './outbox';
import { RequestContexts } from '@partner/runtime';
import { ensureTopics, topicLayout } from './topic-admin';

// Integration: a real broker and a real PostgreSQL. The outbox lives in a scratch schema of this run,
// shaped like the services' own outbox_messages (prisma/withdrawals/migrations), and is dropped at the end.

const TOPIC = Topics.WithdrawalStateChanged;
const connection: KafkaConnection = {
  ...kafkaConnectionFromEnv('spec'),
  clientId: `outbox-spec-${process.pid}`,
  client: kafkaClientFromEnv(),
};
const databaseUrl = requireEnv('DATABASE_URL');
const schema = `outbox_it_${randomBytes(6).toString('hex')}`;
const table = `"${schema}"."outbox_messages"`;

/** What the test consumer saw on the event topic, in the order of each partition. */
interface Received {
  partition: number;
  key: string;
  event: WithdrawalStateChangedEvent;
  /** The request_id header. */
  requestId?: string;
}

interface Row {
  id: string;
  key: string;
  eventId: string;
}

const pools: Pool[] = [];
const newPool = (): Pool => {
  const pool = new Pool({ connectionString: databaseUrl, max: 4 });
  pools.push(pool);
  return pool;
};

let pool: Pool;
let bus: MessageBus;
let consumer: Consumer;
let admin: Admin;
const received: Received[] = [];
/** Next offset the consumer will read, per partition. */
const position = new Map<number, number>();

const stateChanged = (partnerId: PartnerId, resourceId: string, state: 'created' | 'sent'): WithdrawalStateChangedEvent =>
  withdrawalStateChanged(partnerId, { resourceId: Number(resourceId), state });

/** Inserts `count` rows spread round-robin over `keys`, one at a time so ids follow the loop order. */
async function insertRows(partnerId: PartnerId, keys: string[], count: number): Promise<Row[]> {
  const rows: Row[] = [];
  for (let i = 0; i < count; i++) {
    const key = keys[i % keys.length];
    // The contract keys a withdrawal's event by its id: usdt_withdrawal:<key>.
    const message = outboxMessage(TOPIC, stateChanged(partnerId, key, i < keys.length ? 'created' : 'sent'));
    const { rows: inserted } = await pool.query<{ id: string }>(
      `INSERT INTO ${table} (topic, key, payload) VALUES ($1, $2, $3) RETURNING id`,
      [message.topic, message.key, JSON.stringify(message.payload)],
    );
    rows.push({ id: inserted[0].id, key: message.key, eventId: message.payload.event_id });
  }
  return rows;
}

/** Waits until the consumer has read everything the topic holds now, so that what it saw is complete. */
async function consumeEverythingPublished(): Promise<void> {
  // Retried: right after the suite's topics are created the broker may not have their leaders yet.
  const ends = await retried('reading the offsets', () => admin.fetchTopicOffsets(TOPIC));
  await pollUntil(
    'the test consumer to reach the end of every partition',
    async () => ends.filter((p) => (position.get(p.partition) ?? Number(p.low)) < Number(p.high)).map((p) => p.partition),
    (behind) => behind.length === 0,
    { timeoutMs: 30_000 },
  );
}

const receivedFor = (partnerId: string): Received[] => received.filter((r) => r.event.partner_id === partnerId);

/** Each row arrived exactly once, under its key, and each key's rows in id order. */
function expectPublishedOnceInOrder(rows: Row[], partnerId: string): void {
  const got = receivedFor(partnerId);
  expect(got.map((r) => r.event.event_id).sort()).toEqual(rows.map((r) => r.eventId).sort());
  for (const key of new Set(rows.map((r) => r.key))) {
    const expectedOrder = rows
      .filter((r) => r.key === key)
      .sort((a, b) => Number(BigInt(a.id) - BigInt(b.id)))
      .map((r) => r.eventId);
    const gotForKey = got.filter((r) => r.key === key);
    expect({ key, order: gotForKey.map((r) => r.event.event_id) }).toEqual({ key, order: expectedOrder });
    // A key always lands on one partition, which is what keeps its events in order for consumers.
    expect(new Set(gotForKey.map((r) => r.partition)).size).toBe(1);
  }
}

async function unpublishedAmong(rows: Row[]): Promise<number> {
  const { rows: result } = await pool.query<{ n: string }>(
    `SELECT count(*) AS n FROM ${table} WHERE id = ANY($1::bigint[]) AND published_at IS NULL`,
    [rows.map((r) => r.id)],
  );
  return Number(result[0].n);
}

/** A relay on `pool`: statements through libs/db's runStatement, as on a service's Database. */
const newRelay = (pool: Pool, batchSize: number) =>
  new OutboxRelay({ query: (s, values) => runStatement(pool, s, values), connect: () => pool.connect() }, bus, {
    schema,
    pollMs: 60_000,
    batchSize,
  });

beforeAll(async () => {
  await ensureTopics(connection, topicLayout(loadConfig(CommonConfig)));

  pool = newPool();
  await pool.query(`CREATE SCHEMA "${schema}"`);
  await pool.query(`
    CREATE TABLE ${table} (
      "id" BIGSERIAL NOT NULL PRIMARY KEY,
      "topic" TEXT NOT NULL,
      "key" TEXT NOT NULL,
      "payload" JSONB NOT NULL,
      "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
      "published_at" TIMESTAMPTZ(3),
      "request_id" TEXT,
      "traceparent" TEXT
    )`);
  await pool.query(`CREATE INDEX ON ${table} ("published_at", "id")`);

  // The same producer set-up as KafkaModule gives a process that only publishes.
  bus = new MessageBus({ connection, idempotentProducer: true });
  await bus.onModuleInit();

  const kafka = createKafka({ ...connection, clientId: `outbox-spec-reader-${process.pid}` });
  admin = kafka.admin();
  await admin.connect();
  consumer = kafka.consumer({ groupId: `outbox-spec-${schema}` });
  await consumer.connect();
  await consumer.subscribe({ topic: TOPIC, fromBeginning: true });
  await consumer.run({
    eachMessage: async ({ partition, message }) => {
      position.set(partition, Number(message.offset) + 1);
      const event = JSON.parse(message.value?.toString() ?? 'null') as WithdrawalStateChangedEvent | null;
      if (event)
        received.push({ partition, key: message.key?.toString() ?? '', event, requestId: message.headers?.request_id?.toString() });
    },
  });
}, 90_000);

afterAll(async () => {
  await Promise.all([consumer?.disconnect(), admin?.disconnect(), bus?.onApplicationShutdown()]);
  await pool?.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await Promise.all(pools.map((p) => p.end()));
}, 30_000);

describe('OutboxRelay (PostgreSQL + Kafka)', () => {
  it('publishes every pending row exactly once, under its key, in id order per key, and marks it published', async () => {
    const partnerId = testPartnerId();
    const keys = ['101', '102', '103'];
    const rows = await insertRows(partnerId, keys, 30);
    // A batch size below the row count makes drain() go round several times.
    const relay = newRelay(pool, 8);

    expect(await relay.drain()).toBe(30);

    expect(await unpublishedAmong(rows)).toBe(0);
    await consumeEverythingPublished();
    expectPublishedOnceInOrder(rows, partnerId);
  }, 60_000);

  it('reports its backlog (pending rows, age of the oldest) for /metrics, and none once drained', async () => {
    const relay = newRelay(pool, 500);
    await relay.drain();
    expect(await relay.backlog()).toEqual({ pending: 0, oldestAgeSeconds: 0 });

    const rows = await insertRows(testPartnerId(), ['301'], 3);
    // 91 s back for an assertion of >= 90: created_at keeps milliseconds, so storing now() - 90 s may round
    // up by up to half a millisecond, more than the time to the next statement on a fast connection.
    await pool.query(`UPDATE ${table} SET created_at = now() - interval '91 seconds' WHERE id = $1`, [rows[0].id]);
    const backlog = await relay.backlog();
    expect(backlog.pending).toBe(3);
    expect(backlog.oldestAgeSeconds).toBeGreaterThanOrEqual(90);
    expect(backlog.oldestAgeSeconds).toBeLessThan(120);

    expect(await relay.drain()).toBe(3);
    expect(await relay.backlog()).toEqual({ pending: 0, oldestAgeSeconds: 0 });
  }, 60_000);

  it('stamps the id of the request a unit of work serves on its events, published as their request_id header', async () => {
    const partnerId = testPartnerId();
    // The services' own pools resolve outbox_messages through their schema's search_path.
    const scoped = new Pool({ connectionString: databaseUrl, max: 2, options: `-c search_path=${schema}` });
    pools.push(scoped);
    const work = new UnitOfWork(scoped, { wake: () => undefined }, eventOrigin);
    const caused = stateChanged(partnerId, '401', 'created');
    const moved = stateChanged(partnerId, '401', 'sent');

    await RequestContexts.run({ requestId: 'abc-123', partnerId }, () => work.run(async (tx) => tx.emit(outboxMessage(TOPIC, caused))));
    await work.run(async (tx) => tx.emit(outboxMessage(TOPIC, moved)));
    await newRelay(pool, 500).drain();

    await consumeEverythingPublished();
    expect(receivedFor(partnerId).map((r) => [r.event.event_id, r.requestId])).toEqual([
      [caused.event_id, 'abc-123'],
      [moved.event_id, undefined],
    ]);
  }, 60_000);

  it('publishes nothing when drained again with nothing pending', async () => {
    const partnerId = testPartnerId();
    const rows = await insertRows(partnerId, ['201', '202'], 6);
    const relay = newRelay(pool, 500);
    expect(await relay.drain()).toBe(6);

    expect(await relay.drain()).toBe(0);

    await consumeEverythingPublished();
    expect(receivedFor(partnerId)).toHaveLength(6);
    expect(await unpublishedAmong(rows)).toBe(0);
  }, 60_000);

  it('publishes nothing while another transaction holds its lock, and everything once it is released', async () => {
    const partnerId = testPartnerId();
    const rows = await insertRows(partnerId, ['401', '402'], 4);
    const holder = await newPool().connect();
    await holder.query('BEGIN');
    await holder.query('SELECT pg_advisory_xact_lock(hashtext($1))', [table]);
    const relay = newRelay(newPool(), 500);

    expect(await relay.drain()).toBe(0);
    expect(await unpublishedAmong(rows)).toBe(4);

    await holder.query('COMMIT');
    holder.release();
    expect(await relay.drain()).toBe(4);
    await consumeEverythingPublished();
    expectPublishedOnceInOrder(rows, partnerId);
  }, 60_000);

  it('rolls back a round the broker refused: the rows stay pending, the lock is released, the next drain publishes them once', async () => {
    const partnerId = testPartnerId();
    const rows = await insertRows(partnerId, ['501', '502'], 4);
    const refusing: Pick<MessageBus, 'publishBatch'> = { publishBatch: () => Promise.reject(new Error('broker away')) };
    const failing = new OutboxRelay(newPool(), refusing, { schema, pollMs: 60_000 });

    await expect(failing.drain()).rejects.toThrow('broker away');
    expect(await unpublishedAmong(rows)).toBe(4);

    // Another instance gets the lock at once: the failed round's transaction did not stay open.
    expect(await newRelay(newPool(), 500).drain()).toBe(4);
    await consumeEverythingPublished();
    expectPublishedOnceInOrder(rows, partnerId);
  }, 60_000);

  it('two relays draining the same outbox at once still publish each row once (advisory lock)', async () => {
    const partnerId = testPartnerId();
    const rows = await insertRows(partnerId, ['301', '302', '303'], 60);
    // Two service instances: separate connection pools, so their transactions really overlap.
    const first = newRelay(newPool(), 10);
    const second = newRelay(newPool(), 10);

    const [a, b] = await Promise.all([first.drain(), second.drain()]);

    expect(a + b).toBe(60);
    expect(await unpublishedAmong(rows)).toBe(0);
    await consumeEverythingPublished();
    expectPublishedOnceInOrder(rows, partnerId);
  }, 60_000);
});
