import { CommonConfig, loadConfig } from '@partner/config';
import { Partitioners } from 'kafkajs';
import { kafkaConnection } from './kafka-client';
import { kafkaClient, kafkaClientFromEnv } from './kafka-client.factory';
import { javaCompatiblePartitioner } from './platformatic-client';

describe('KAFKA_CLIENT (the Kafka client library, docs/adr/0027-kafkajs-risk-and-a-way-out.md)', () => {
  it('is kafkajs by default, platformatic when asked, and refuses anything else at start-up', () => {
    expect(kafkaClient(kafkaConnection(loadConfig(CommonConfig, {}), 'x')).name).toBe('kafkajs');
    expect(kafkaClient(kafkaConnection(loadConfig(CommonConfig, { KAFKA_CLIENT: 'platformatic' }), 'x')).name).toBe('platformatic');
    expect(() => loadConfig(CommonConfig, { KAFKA_CLIENT: 'librdkafka' })).toThrow(/KAFKA_CLIENT must be one of kafkajs, platformatic/);
    expect(kafkaClientFromEnv({})).toBe('kafkajs');
    expect(kafkaClientFromEnv({ KAFKA_CLIENT: 'platformatic' })).toBe('platformatic');
    expect(() => kafkaClientFromEnv({ KAFKA_CLIENT: 'rdkafka' })).toThrow(
      /KAFKA_CLIENT must be one of kafkajs, platformatic, not "rdkafka"/,
    );
  });
});

describe("@platformatic/kafka's partitioner", () => {
  it('puts every key on the partition kafkajs (the Java client) puts it on, and spreads keyless messages', () => {
    const partitions = 6;
    const kafkajs = Partitioners.DefaultPartitioner();
    const partitionMetadata = Array.from({ length: partitions }, (_, partitionId) => ({
      partitionId,
      leader: 0,
      partitionErrorCode: 0,
      replicas: [0],
      isr: [0],
    }));
    const ours = javaCompatiblePartitioner();
    const keys = ['withdrawal-1', '3fa85f64-5717-4562-a567-0b7c2c963f66', '12345678909', 'é', ''.padEnd(64, 'k')];
    for (const key of keys) {
      const expected = kafkajs({ topic: 't', partitionMetadata, message: { key, value: null } });
      expect([key, ours({ topic: 't', key }, Buffer.from(key)) % partitions]).toEqual([key, expected]);
    }
    const keyless = new Set(Array.from({ length: partitions }, () => ours({ topic: 't' }, undefined) % partitions));
    expect(keyless.size).toBe(partitions);
  });
});
