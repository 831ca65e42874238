/**
 * The services' consumer groups as the broker sees them. Apart from stack.ts, which `npm start` loads, so
 * that starting the stack does not load the Kafka client.
 */
import { createKafka } from '@partner/kafka';
import { busAdminConnection } from './bus';
import { SERVICES } from '../lib/services';

/** The service groups (`<service>` for events, `<service>.requests` for requests): the members of each. */
export async function serviceGroups(kafkaPort: number): Promise<Record<string, number>> {
  const admin = createKafka(busAdminConnection(kafkaPort, `consumer-groups-${process.pid}`)).admin();
  await admin.connect();
  try {
    const names = new Set<string>(SERVICES.flatMap((s) => [s, `${s}.requests`]));
    const ids = (await admin.listGroups()).groups.map((g) => g.groupId).filter((id) => names.has(id));
    const { groups } = await admin.describeGroups(ids);
    return Object.fromEntries(groups.map((g) => [g.groupId, g.members.length]));
  } finally {
    await admin.disconnect();
  }
}
