import { Kafka, logLevel } from 'kafkajs';
import { Topics } from '@partner/contracts';
import { requireEnv } from '@partner/testing';
import { busAs } from './support/bus';

/**
 * The bus is authenticated and authorised (issue 49, docs/adr/0032-authenticated-bus.md), against the running
 * stack's broker: a foothold in one app does not let it publish another's commands or events, nor read
 * another's topics; a client without a password, or with a wrong one, gets nothing. The old broker took
 * anything from anyone on a plain listener: each of these went through.
 */
const refusal = async (work: Promise<unknown>): Promise<string> => {
  try {
    await work;
  } catch (error) {
    // kafkajs wraps the broker's answer (a send's in a KafkaJSNonRetriableError): the innermost one says why.
    let inner = error as { type?: string; name: string; cause?: unknown };
    while (inner.cause) inner = inner.cause as typeof inner;
    return inner.type ?? inner.name;
  }
  return 'went through';
};

async function send(kafka: Kafka, topic: string): Promise<string> {
  const producer = kafka.producer();
  await producer.connect();
  try {
    return await refusal(producer.send({ topic, messages: [{ key: 'e2e', value: '{"forged":true}' }] }));
  } finally {
    await producer.disconnect();
  }
}

describe('the bus lets each app produce and consume its own topics only', () => {
  it('refuses a credit command from any principal but the gateway', async () => {
    for (const app of ['events', 'inflows', 'customers', 'pix-keys', 'withdrawals']) {
      expect([app, await send(busAs(app), Topics.WithdrawalsCreditAccount)]).toEqual([app, 'TOPIC_AUTHORIZATION_FAILED']);
    }
  });

  it("refuses an app's event from another app (a forged key revocation, a forged withdrawal state)", async () => {
    expect(await send(busAs('withdrawals'), Topics.GatewayApiKeyRevoked)).toBe('TOPIC_AUTHORIZATION_FAILED');
    expect(await send(busAs('inflows'), Topics.WithdrawalStateChanged)).toBe('TOPIC_AUTHORIZATION_FAILED');
    expect(await send(busAs('gateway'), Topics.PixInStateChanged)).toBe('TOPIC_AUTHORIZATION_FAILED');
  });

  it("refuses to let an app read another's commands", async () => {
    const consumer = busAs('customers').consumer({ groupId: 'customers.e2e-snoop' });
    await consumer.connect();
    try {
      expect(
        await refusal(
          consumer
            .subscribe({ topics: [Topics.WithdrawalsCreditAccount] })
            .then(() => consumer.run({ eachMessage: async () => undefined })),
        ),
      ).toBe('TOPIC_AUTHORIZATION_FAILED');
    } finally {
      await consumer.disconnect();
    }
  });

  it('refuses a wrong password and a client without one', async () => {
    const wrong = busAs('gateway', 'not-the-gateways-password').producer();
    expect(await refusal(wrong.connect())).toMatch(/SASL|Authentication/i);
    const anonymous = new Kafka({
      clientId: 'e2e-anonymous',
      brokers: requireEnv('KAFKA_BROKERS').split(','),
      logLevel: logLevel.NOTHING,
      connectionTimeout: 3_000,
      retry: { retries: 1 },
    }).producer();
    expect(
      await refusal(
        anonymous.connect().then(() => anonymous.send({ topic: Topics.WithdrawalsCreditAccount, messages: [{ value: '{}' }] })),
      ),
    ).not.toBe('went through');
    await anonymous.disconnect().catch(() => undefined);
  });
});
