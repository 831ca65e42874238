import { eventTopics, requestTopics } from './contract-map';
import { APP_NAMES, AppName, ServiceName } from './services.catalogue';
import { Topics } from './topics';

/**
 * Who may do what on the bus (docs/adr/0032-authenticated-bus.md). Every app authenticates as its own
 * principal, a SCRAM-SHA-512 user named as the app (the two withdrawals processes share `withdrawals`);
 * `admin`, the broker's super user, is the deploy step's (topics, principals, ACLs) and the tools'. The ACLs
 * let each app produce and consume its own topics and groups only:
 * - a command or query topic `<service>.…` is written by the gateway alone and read by its service alone;
 * - a domain event `<app>.event.…` is written by the app that owns it and read by EVENT_CONSUMERS;
 * - replies go to a topic of each requesting process's own (`replies.gateway.…`, MessageBus), which the
 *   gateway creates, reads and deletes and into which any service may write;
 * - a consumer group starts with its app's name (`withdrawals`, `withdrawals.requests`,
 *   `gateway.api-key-revocations.<instance>`), or is the gateway's reply group (its reply topic's name).
 *
 * The prefix of every reply topic (`replies.<client>.<instance>`, MessageBus), and the gateway's own. */
export const REPLY_TOPIC_PREFIX = 'replies.';
const GATEWAY_REPLY_PREFIX = `${REPLY_TOPIC_PREFIX}gateway.`;

type EventTopic = (typeof eventTopics)[number];

/** The apps that consume each domain event (an event no app reads is for consumers outside the system). */
export const EVENT_CONSUMERS: Readonly<Record<EventTopic, readonly AppName[]>> = {
  [Topics.WithdrawalStateChanged]: ['events'],
  [Topics.AccountCredited]: [],
  [Topics.PixKeyStateChanged]: ['events', 'inflows'],
  [Topics.PixKeyClaimChanged]: ['events'],
  [Topics.PixKeysMedCaseReceived]: ['inflows'],
  [Topics.PixKeysMedCaseCancelled]: ['inflows'],
  [Topics.PixInStateChanged]: ['events'],
  [Topics.PixInRefundStateChanged]: ['events'],
  [Topics.MedCaseChanged]: ['pix-keys'],
  [Topics.BusinessCustomerRegistered]: ['events'],
  [Topics.SpiPixReceived]: ['inflows'],
  [Topics.GatewayApiKeyRevoked]: ['gateway'],
  [Topics.GatewayPartnerStatusChanged]: ['gateway', 'inflows'],
};

/** The app that publishes an event: the topic's first segment, but the simulated Pix network's is the inflows service (SANDBOX only). */
export const eventProducerOf = (topic: EventTopic): AppName => (topic.startsWith('spi.') ? 'inflows' : (topic.split('.')[0] as AppName));

/** The service that answers a command or query: the topic's first segment. */
export const requestOwnerOf = (topic: string): ServiceName => topic.split('.')[0] as ServiceName;

export type BusOperation = 'read' | 'write' | 'create' | 'delete' | 'describe';

/** One allowed operation of a principal on a resource (a literal name, or every name with a prefix). */
export interface BusAcl {
  resource: 'topic' | 'group' | 'cluster';
  name: string;
  pattern: 'literal' | 'prefixed';
  operation: BusOperation;
}

const topic = (name: string, operation: BusOperation, pattern: BusAcl['pattern'] = 'literal'): BusAcl => ({
  resource: 'topic',
  name,
  pattern,
  operation,
});
const groups = (prefix: string): BusAcl => ({ resource: 'group', name: prefix, pattern: 'prefixed', operation: 'read' });
/** Reading the cluster's description: the readiness probe counts the brokers. */
const CLUSTER_DESCRIBE: BusAcl = { resource: 'cluster', name: 'kafka-cluster', pattern: 'literal', operation: 'describe' };

/** Everything `app` may do on the bus; nothing else is allowed it. */
export function busAcls(app: AppName): BusAcl[] {
  const acls: BusAcl[] = [CLUSTER_DESCRIBE];
  for (const t of eventTopics) {
    if (eventProducerOf(t) === app) acls.push(topic(t, 'write'));
    if (EVENT_CONSUMERS[t].includes(app)) acls.push(topic(t, 'read'));
  }
  if (app === 'gateway') {
    for (const t of requestTopics) acls.push(topic(t, 'write'));
    for (const operation of ['create', 'read', 'delete'] as const) acls.push(topic(GATEWAY_REPLY_PREFIX, operation, 'prefixed'));
    acls.push(groups(GATEWAY_REPLY_PREFIX), groups('gateway.'));
  } else {
    for (const t of requestTopics) if (requestOwnerOf(t) === app) acls.push(topic(t, 'read'));
    acls.push(topic(REPLY_TOPIC_PREFIX, 'write', 'prefixed'), groups(app));
  }
  return acls;
}

/** The shared topics `principal` reads or writes (all of them for `admin` or a cluster without principals): what its start checks. */
export function topicsOf(principal: string | undefined): string[] {
  const all = [...requestTopics, ...eventTopics];
  if (!principal || !(APP_NAMES as readonly string[]).includes(principal)) return all;
  const allowed = new Set(
    busAcls(principal as AppName).flatMap((acl) => (acl.resource === 'topic' && acl.pattern === 'literal' ? [acl.name] : [])),
  );
  return all.filter((t) => allowed.has(t));
}
