import { kafkaConnectionFromEnv } from '@partner/kafka';
import { Global, INestMicroservice, Logger, Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { loadConfig } from '@partner/config';
import { EventPayload, EventTopic, PartnerId, PixKeyState, PixKeyStateChangedEvent, PixReceivedEvent, Topics } from '@partner/contracts';
import {
  createKafka,
  ensureTopics,
  topicLayout,
  KafkaConnection,
  KafkaModule,
  kafkaServerOptions,
  MessageBus,
  outboxModule,
  createProducer,
  kafkaClientFromEnv,
} from '@partner/kafka';
import { newCpf, newUuid, pixKeyStateChanged, pollUntil, selectCount, selectRows, testPartnerId } from '@partner/testing';
import { randomBytes } from 'node:crypto';
import { Database, databaseProvider } from '@partner/db';
import { InflowsConfig } from './config/inflows.config';
import { PixInflowsModule } from './pix-inflows/pix-inflows.module';
import { PixKeyReplicaModule } from './pix-key-replica/pix-key-replica.module';
import { DB_SCHEMA } from './database/db-schema';
import { newEndToEndId } from './spi-simulator/end-to-end-id';
import { completeSender } from './spi-simulator/sender-details';
import { SpiSimulatorModule } from './spi-simulator/spi-simulator.module';
import { AccountsModule } from './accounts/accounts.module';

// Integration through the real broker and PostgreSQL: the inflows features wired as the service wires
// them, consuming under a consumer group of this run's own (the health ping is left out: another suite
// answers the inflows ping topic itself). Settlement is parked (a one-hour step), so this suite watches
// recording only and leaves the other suites' rows alone.

const run = randomBytes(4).toString('hex');
const connection: KafkaConnection = {
  ...kafkaConnectionFromEnv('spec'),
  clientId: `inflows-int-${process.pid}`,
  client: kafkaClientFromEnv(),
};
const config = loadConfig(InflowsConfig, { ...process.env, PIX_IN_STEP_DELAY_MS: '3600000', OUTBOX_POLL_MS: '100' });

@Global()
@Module({
  providers: [{ provide: InflowsConfig, useValue: config }, databaseProvider(InflowsConfig, DB_SCHEMA)],
  exports: [InflowsConfig, Database],
})
class ConfigModule {}

let service: INestMicroservice;
let bus: MessageBus;
let db: Database;
let producer: ReturnType<typeof createProducer>;

/**
 * Puts an event on its topic as another service's outbox relay would, but under a key the test chooses:
 * what lands on one partition is then the test's to decide (services only publish through their outbox).
 */
async function publish<T extends EventTopic>(topic: T, key: string, payload: EventPayload<T>): Promise<void> {
  await producer.send({ topic, acks: -1, messages: [{ key, value: JSON.stringify(payload) }] });
}

beforeAll(async () => {
  await ensureTopics(connection, topicLayout(config));
  const moduleRef = await Test.createTestingModule({
    imports: [
      ConfigModule,
      KafkaModule.forRootAsync({ inject: [], useFactory: () => ({ connection, idempotentProducer: true }) }),
      outboxModule(InflowsConfig, DB_SCHEMA),
      AccountsModule,
      PixKeyReplicaModule,
      SpiSimulatorModule,
      PixInflowsModule,
    ],
  }).compile();
  if (!process.env.TEST_LOGS) Logger.overrideLogger(false);
  service = moduleRef.createNestMicroservice(kafkaServerOptions({ connection, groupId: `inflows-int-${run}`, maxInFlight: 3 }));
  db = moduleRef.get(Database);

  bus = new MessageBus({
    connection: { ...connection, clientId: `inflows-int-client-${process.pid}` },
    requests: { timeoutMs: 5_000 },
    idempotentProducer: false,
  });
  producer = createProducer(createKafka({ ...connection, clientId: `inflows-int-producer-${process.pid}` }));
  await Promise.all([service.listen(), bus.onModuleInit(), producer.connect()]);
}, 90_000);

afterAll(() => Promise.all([bus?.onApplicationShutdown(), service?.close(), producer?.disconnect()]), 30_000);

function announcement(partnerId: PartnerId, document: string): PixReceivedEvent {
  const sender = completeSender({});
  const sentAt = new Date();
  return {
    partner_id: partnerId,
    document,
    end_to_end_id: newEndToEndId(sender.sender_bank_code, sentAt),
    amount_cents: 5_000,
    method: 'initiator',
    ...sender,
    outcome: 'credited',
    sent_at: sentAt.toISOString(),
  };
}

/** Logs the payment as the simulated network does when it sends one (spi_payments): what its notification names the account from. */
async function logged(payment: PixReceivedEvent): Promise<PixReceivedEvent> {
  await db.query(
    `INSERT INTO spi_payments (end_to_end_id, partner_id, document, amount_cents, method, sender_name, sender_tax_id,
       sender_account_number, sender_account_type, sender_bank_code, sender_branch_code, outcome, sent_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
    [
      payment.end_to_end_id,
      payment.partner_id,
      payment.document,
      payment.amount_cents,
      payment.method,
      payment.sender_name,
      payment.sender_tax_id,
      payment.sender_account_number,
      payment.sender_account_type,
      payment.sender_bank_code,
      payment.sender_branch_code,
      payment.outcome,
      payment.sent_at,
    ],
  );
  return payment;
}

const keyEvent = (partnerId: PartnerId, document: string, keyId: string, state: PixKeyState): PixKeyStateChangedEvent =>
  pixKeyStateChanged(partnerId, { document, keyId, state });

async function processingEvents(partnerId: string): Promise<string[]> {
  const rows = await selectRows<{ payload: unknown }>(db, 'SELECT payload FROM outbox_messages WHERE topic = $1 ORDER BY id', [
    Topics.PixInStateChanged,
  ]);
  return rows
    .map((r) => r.payload as { partner_id: string; state: string; resource_id: string })
    .filter((p) => p.partner_id === partnerId)
    .map((p) => `${p.resource_id}:${p.state}`);
}

const inflowCount = (endToEndId: string) => selectCount(db, 'SELECT count(*) FROM pix_inflows WHERE end_to_end_id = $1', [endToEndId]);

/** A user of a new partner, known to the service; retried until the fresh consumer groups answer. */
async function newUser(): Promise<{ partnerId: PartnerId; document: string }> {
  const partnerId = testPartnerId();
  const document = newCpf();
  await pollUntil(
    'the inflows service to store the user',
    () => bus.request(Topics.InflowsUpsertUser, { partner_id: partnerId, document }).catch(() => ({ ok: false as const })),
    (reply) => reply.ok,
    { timeoutMs: 45_000, intervalMs: 0 },
  );
  return { partnerId, document };
}

describe('inflows service over Kafka', () => {
  it('records a payment the network announces twice only once', async () => {
    // A known user: the announcement goes through the provider's ingestion, which records inflows of known users only.
    const { partnerId, document } = await newUser();
    const payment = await logged(announcement(partnerId, document));
    const marker = await logged(announcement(partnerId, document));

    // One key: one partition, so when the marker is recorded both copies before it were handled.
    await publish(Topics.SpiPixReceived, partnerId, payment);
    await publish(Topics.SpiPixReceived, partnerId, { ...payment });
    await publish(Topics.SpiPixReceived, partnerId, marker);
    await pollUntil(
      'the marker payment to be recorded',
      () => inflowCount(marker.end_to_end_id),
      (n) => n === 1,
      { timeoutMs: 45_000 },
    );

    expect(await inflowCount(payment.end_to_end_id)).toBe(1);
    expect(await processingEvents(partnerId)).toEqual([`${payment.end_to_end_id}:processing`, `${marker.end_to_end_id}:processing`]);
  }, 90_000);

  it('takes a simulated Pix through the network topic into the listing', async () => {
    const { partnerId, document } = await newUser();

    const reply = await bus.request(Topics.InflowsSimulatePixIn, {
      partner_id: partnerId,
      document,
      amount_cents: 777,
      description: 'via Kafka',
    });

    expect(reply.ok).toBe(true);
    const e2e = reply.ok ? reply.data.end_to_end_id : '';
    // The announcement leaves through the outbox relay and comes back through the consumer.
    const listed = await pollUntil(
      'the inflow in the listing',
      () => bus.request(Topics.InflowsList, { partner_id: partnerId }),
      (r) => r.ok && r.data.pix_in.length === 1,
      { timeoutMs: 30_000 },
    );
    expect(listed).toEqual({
      ok: true,
      data: {
        pix_in: [
          expect.objectContaining({
            end_to_end_id: e2e,
            amount_cents: 777,
            description: 'via Kafka',
            method: 'manual',
            status: 'processing',
          }),
        ],
      },
    });
  }, 90_000);

  it('lets a Pix by key through once a registered pix_key event arrives, and refuses it again after cancellation', async () => {
    const { partnerId, document } = await newUser();
    const byKey = () => bus.request(Topics.InflowsSimulatePixIn, { partner_id: partnerId, document, amount_cents: 100, method: 'dict' });
    const keyId = newUuid();

    expect(await byKey()).toMatchObject({ ok: false, error: { code: 'pix_key_not_registered' } });

    await publish(Topics.PixKeyStateChanged, `pix_key:${keyId}`, keyEvent(partnerId, document, keyId, 'registered'));
    await pollUntil('a Pix by key to be accepted', byKey, (r) => r.ok, { timeoutMs: 30_000, intervalMs: 200 });

    await publish(Topics.PixKeyStateChanged, `pix_key:${keyId}`, keyEvent(partnerId, document, keyId, 'canceled'));
    const refused = await pollUntil('a Pix by key to be refused again', byKey, (r) => !r.ok, { timeoutMs: 30_000, intervalMs: 200 });
    expect(refused).toMatchObject({ ok: false, error: { code: 'pix_key_not_registered' } });
  }, 90_000);
});
