/**
 * The bus's deploy step for a stack on this machine (npm start, npm test, the bench, chaos): what Compose's
 * kafka-setup service does, with the passwords `stack.ts` keeps beside the broker's data. Apart from
 * stack.ts so that only a stack's start loads the Kafka client.
 */
import { BUS_ADMIN, APP_NAMES } from '@partner/contracts';
import { CommonConfig, loadConfig } from '@partner/config';
import { BusPasswords, KafkaConnection, setUpBus, topicLayout } from '@partner/kafka';
import { busSasl, StackOptions } from './stack';

/** A client of the broker on `port` as its super user (the deploy step's and the tools' principal). */
export const busAdminConnection = (port: number, clientId: string): KafkaConnection => ({
  brokers: [`127.0.0.1:${port}`],
  clientId,
  sasl: busSasl(port, BUS_ADMIN),
});

/** Topics with the stack's layout (its KAFKA_PARTITIONS...), each app's principal, the ACLs. */
export async function setUpLocalBus(o: StackOptions): Promise<void> {
  const kafkaSettings = Object.fromEntries(
    Object.entries({ ...process.env, ...o.env }).filter(([name]) =>
      /^KAFKA_(PARTITIONS|REPLICATION_FACTOR|MIN_INSYNC_REPLICAS)$/.test(name),
    ),
  );
  const layout = topicLayout(loadConfig(CommonConfig, { NODE_ENV: 'development', ...kafkaSettings }));
  const passwords = Object.fromEntries(APP_NAMES.map((app) => [app, busSasl(o.kafkaPort, app).password])) as BusPasswords;
  await setUpBus(busAdminConnection(o.kafkaPort, `stack-setup-${process.pid}`), layout, passwords);
}
