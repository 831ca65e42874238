import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CommonConfig, ConfigError, loadConfig } from '@partner/config';
import { kafkaConnection, retried } from './kafka-client';
import { kafkaClientConfig } from './kafkajs-client';

describe('kafkaConnection (the Kafka settings of every client, from the app configuration)', () => {
  it('is plain TCP without authentication by default', () => {
    const conn = kafkaConnection(loadConfig(CommonConfig, { KAFKA_BROKERS: 'k1:9092,k2:9092' }), 'withdrawals-1');
    expect(conn).toEqual({ brokers: ['k1:9092', 'k2:9092'], clientId: 'withdrawals-1', client: 'kafkajs' });
    const client = kafkaClientConfig(conn);
    expect(client.ssl).toBeUndefined();
    expect(client.sasl).toBeUndefined();
  });

  it('uses TLS with the system CAs, or with the CA bundle of KAFKA_SSL_CA_FILE', () => {
    expect(kafkaClientConfig(kafkaConnection(loadConfig(CommonConfig, { KAFKA_SSL: 'true' }), 'x')).ssl).toBe(true);
    const ca = join(mkdtempSync(join(tmpdir(), 'kafka-ca-')), 'ca.pem');
    writeFileSync(ca, '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n');
    const conn = kafkaConnection(loadConfig(CommonConfig, { KAFKA_SSL: 'true', KAFKA_SSL_CA_FILE: ca }), 'x');
    expect(kafkaClientConfig(conn).ssl).toEqual({ ca: ['-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n'] });
    expect(kafkaConnection(loadConfig(CommonConfig, { KAFKA_SSL: 'false', KAFKA_SSL_CA_FILE: ca }), 'x').ssl).toBeUndefined();
  });

  it('fails at start-up when the CA file cannot be read', () => {
    expect(() => kafkaConnection(loadConfig(CommonConfig, { KAFKA_SSL: 'true', KAFKA_SSL_CA_FILE: '/nonexistent/ca.pem' }), 'x')).toThrow(
      /ENOENT/,
    );
  });

  it.each(['plain', 'scram-sha-256', 'scram-sha-512'] as const)('authenticates with SASL %s', (mechanism) => {
    const config = loadConfig(CommonConfig, { KAFKA_SASL_MECHANISM: mechanism, KAFKA_SASL_USERNAME: 'svc', KAFKA_SASL_PASSWORD: 's3cret' });
    expect(kafkaClientConfig(kafkaConnection(config, 'x')).sasl).toEqual({ mechanism, username: 'svc', password: 's3cret' });
  });
});

describe('CommonConfig Kafka settings', () => {
  it('refuses SASL without credentials, an unknown mechanism, and min.insync.replicas above the replication factor', () => {
    expect(() => loadConfig(CommonConfig, { KAFKA_SASL_MECHANISM: 'plain' })).toThrow(
      /KAFKA_SASL_USERNAME is required[\s\S]*KAFKA_SASL_PASSWORD is required/,
    );
    expect(() => loadConfig(CommonConfig, { KAFKA_SASL_MECHANISM: 'gssapi' })).toThrow(ConfigError);
    expect(() => loadConfig(CommonConfig, { KAFKA_REPLICATION_FACTOR: '1', KAFKA_MIN_INSYNC_REPLICAS: '2' })).toThrow(
      /must not exceed KAFKA_REPLICATION_FACTOR/,
    );
    expect(loadConfig(CommonConfig, { KAFKA_REPLICATION_FACTOR: '3', KAFKA_MIN_INSYNC_REPLICAS: '2' })).toMatchObject({
      KAFKA_REPLICATION_FACTOR: 3,
      KAFKA_MIN_INSYNC_REPLICAS: 2,
    });
  });
});

describe('the retry schedule of every kafkajs client', () => {
  const { retry } = kafkaClientConfig({ brokers: ['k:9092'], clientId: 'x' });
  /** kafkajs's schedule without its ±20% jitter: each wait doubles the one before, up to maxRetryTime. */
  const waits = (): number[] => {
    const out: number[] = [];
    let wait = retry?.initialRetryTime ?? 300;
    for (let i = 0; i < (retry?.retries ?? 5); i++) {
      out.push(wait);
      wait = Math.min(wait * 2, retry?.maxRetryTime ?? 30_000);
    }
    return out;
  };

  it('finds a broker that is back within about 2 s: no wait between attempts is longer (20% jitter included)', () => {
    expect(Math.max(...waits()) * 1.2).toBeLessThanOrEqual(2_400);
  });

  it('rides out a broker restart of a minute before a client gives up (its consumer is then re-created)', () => {
    expect(waits().reduce((a, b) => a + b, 0) * 0.8).toBeGreaterThanOrEqual(60_000);
  });
});

describe('retried (a start-up step the broker refuses for a while, e.g. a topic whose leader is not elected yet)', () => {
  it('runs the step again until it succeeds', async () => {
    let calls = 0;
    const step = async () => {
      if (++calls < 3) throw new Error('This server does not host this topic-partition');
      return 'joined';
    };
    await expect(retried('subscribing to t', step, 5_000)).resolves.toBe('joined');
    expect(calls).toBe(3);
  });

  it('gives up at its deadline with an error that names the step, the cause kept', async () => {
    const refusal = new Error('This server does not host this topic-partition');
    const failure = retried('subscribing to partner.withdrawals.v1', () => Promise.reject(refusal), 300);
    await expect(failure).rejects.toThrow(
      'subscribing to partner.withdrawals.v1: This server does not host this topic-partition (still, after 0.3 s)',
    );
    await expect(failure).rejects.toMatchObject({ cause: refusal });
  });
});
