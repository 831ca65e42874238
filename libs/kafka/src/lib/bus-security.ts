import { pbkdf2Sync, randomBytes } from 'node:crypto';
import { APP_NAMES, AppName, busAcls, type BusAcl, type BusOperation } from '@partner/contracts';
import type * as Platformatic from '@platformatic/kafka';
import { AclOperationTypes, AclPermissionTypes, AclResourceTypes, ResourcePatternTypes } from 'kafkajs';
import type { KafkaConnection } from './kafka-client';
import { createKafka } from './kafkajs-client';
import { ensureTopics, TopicLayout } from './topic-admin';

/**
 * The bus's deploy step, as `admin`, the broker's super user (docs/adr/0032-authenticated-bus.md): the
 * project's topics, each app's principal and the ACLs of @partner/contracts' busAcls(). `npm run
 * kafka:setup` (Compose: the kafka-setup service) and every stack npm start, npm test, the bench and chaos
 * start run it before the apps, which only check that their topics exist.
 */
export async function setUpBus(
  admin: KafkaConnection,
  layout: TopicLayout,
  passwords: BusPasswords,
): Promise<{ created: string[]; principals: number; acls: number }> {
  const created = await ensureTopics(admin, layout);
  return { created, ...(await ensureBusSecurity(admin, passwords)) };
}

/** A password per app, for its SCRAM credential (npm start and npm test draw them; Compose reads them from secret files). */
export type BusPasswords = Record<AppName, string>;

/** Fresh random passwords: 24 bytes, base64url (nothing a JAAS line or a SCRAM credential would need quoted). */
export const randomBusPassword = (): string => randomBytes(24).toString('base64url');

/** SCRAM-SHA-512's iterations for the stored credentials (the broker's minimum is 4096). */
const SCRAM_ITERATIONS = 8192;
/** The wire code of SCRAM-SHA-512 in AlterUserScramCredentials. */
const SCRAM_SHA_512 = 2;

/**
 * Sets (or re-keys) each app's SCRAM credential and makes the ACLs exactly `busAcls()` for every app:
 * missing ones added, any other ACL of an app principal removed. Runs as `admin`, at every deploy, so that
 * a rotated password or a changed rule takes effect with the next `up` (docs/operations/security.md).
 */
export async function ensureBusSecurity(conn: KafkaConnection, passwords: BusPasswords): Promise<{ principals: number; acls: number }> {
  await setScramCredentials(conn, passwords);
  await untilEveryPrincipalAuthenticates(conn, passwords);
  const kafka = createKafka(conn);
  const admin = kafka.admin();
  await admin.connect();
  try {
    const wanted = APP_NAMES.flatMap((app) => busAcls(app).map((acl) => kafkajsAcl(app, acl)));
    const key = (a: KafkajsAcl) =>
      [a.principal, a.resourceType, a.resourceName, a.resourcePatternType, a.operation, a.permissionType, a.host].join('|');
    const existing = (
      await admin.describeAcls({
        resourceType: AclResourceTypes.ANY,
        resourcePatternType: ResourcePatternTypes.ANY,
        operation: AclOperationTypes.ANY,
        permissionType: AclPermissionTypes.ANY,
      })
    ).resources.flatMap((r) =>
      r.acls.map((a) => ({ ...a, resourceType: r.resourceType, resourceName: r.resourceName, resourcePatternType: r.resourcePatternType })),
    );
    const wantedKeys = new Set(wanted.map(key));
    const ours = new Set(APP_NAMES.map((app) => `User:${app}`));
    const stale = existing.filter((a) => ours.has(a.principal) && !wantedKeys.has(key(a)));
    if (stale.length > 0) await admin.deleteAcls({ filters: stale });
    const present = new Set(existing.map(key));
    const missing = wanted.filter((a) => !present.has(key(a)));
    if (missing.length > 0) await admin.createAcls({ acl: missing });
    return { principals: APP_NAMES.length, acls: wanted.length };
  } finally {
    await admin.disconnect();
  }
}

interface KafkajsAcl {
  principal: string;
  host: string;
  operation: AclOperationTypes;
  permissionType: AclPermissionTypes;
  resourceType: AclResourceTypes;
  resourceName: string;
  resourcePatternType: ResourcePatternTypes;
}

const OPERATIONS: Record<BusOperation, AclOperationTypes> = {
  read: AclOperationTypes.READ,
  write: AclOperationTypes.WRITE,
  create: AclOperationTypes.CREATE,
  delete: AclOperationTypes.DELETE,
  describe: AclOperationTypes.DESCRIBE,
};
const RESOURCES: Record<BusAcl['resource'], AclResourceTypes> = {
  topic: AclResourceTypes.TOPIC,
  group: AclResourceTypes.GROUP,
  cluster: AclResourceTypes.CLUSTER,
};

const kafkajsAcl = (app: AppName, acl: BusAcl): KafkajsAcl => ({
  principal: `User:${app}`,
  host: '*',
  operation: OPERATIONS[acl.operation],
  permissionType: AclPermissionTypes.ALLOW,
  resourceType: RESOURCES[acl.resource],
  resourceName: acl.name,
  resourcePatternType: acl.pattern === 'prefixed' ? ResourcePatternTypes.PREFIXED : ResourcePatternTypes.LITERAL,
});

/**
 * AlterUserScramCredentials (KIP-554) for every app, through @platformatic/kafka's protocol layer: kafkajs
 * has no such request. The salted password is SCRAM's Hi() (RFC 5802), PBKDF2 with HMAC-SHA-512.
 */
async function setScramCredentials(conn: KafkaConnection, passwords: BusPasswords): Promise<void> {
  // Loaded here only: an app on kafkajs never loads @platformatic/kafka (kafka-client.factory.ts), and this runs in the deploy step.
  const { Connection, alterUserScramCredentialsV0 } = require('@platformatic/kafka') as typeof Platformatic;
  const [host, port] = splitBroker(conn.brokers[0]);
  const connection = new Connection(`${conn.clientId}-scram`, {
    ...(conn.sasl
      ? {
          sasl: {
            mechanism: conn.sasl.mechanism.toUpperCase() as 'SCRAM-SHA-512',
            username: conn.sasl.username,
            password: conn.sasl.password,
          },
        }
      : {}),
    ...(conn.ssl ? { tls: conn.ssl === true ? {} : conn.ssl } : {}),
  });
  await connection.connect(host, port);
  try {
    const upsertions = APP_NAMES.map((name) => {
      const salt = randomBytes(32);
      return {
        name,
        mechanism: SCRAM_SHA_512,
        iterations: SCRAM_ITERATIONS,
        salt,
        saltedPassword: pbkdf2Sync(passwords[name], salt, SCRAM_ITERATIONS, 64, 'sha512'),
      };
    });
    const response = await alterUserScramCredentialsV0.api.async(connection, [], upsertions);
    const failed = response.results.filter((r) => r.errorCode !== 0);
    if (failed.length > 0)
      throw new Error(
        `Kafka refused the SCRAM credentials of ${failed.map((r) => `${r.user} (${r.errorMessage ?? r.errorCode})`).join(', ')}`,
      );
  } finally {
    await connection.close();
  }
}

/** How long the deploy step waits for a credential it set to be accepted (a broker formatted a moment ago takes a while). */
const CREDENTIALS_ACCEPTED_WITHIN_MS = 30_000;

/**
 * Returns once every app principal can authenticate with its new password: the controller accepting a credential
 * is not the broker accepting it, and an app started at once was refused by a broker formatted seconds before
 * (chaos runs, whose build comes from the cache). A SASL handshake each, polled, until CREDENTIALS_ACCEPTED_WITHIN_MS.
 */
async function untilEveryPrincipalAuthenticates(conn: KafkaConnection, passwords: BusPasswords): Promise<void> {
  if (!conn.sasl) return;
  const { Connection } = require('@platformatic/kafka') as typeof Platformatic;
  const [host, port] = splitBroker(conn.brokers[0]);
  const deadline = Date.now() + CREDENTIALS_ACCEPTED_WITHIN_MS;
  for (const name of APP_NAMES) {
    for (;;) {
      const connection = new Connection(`${conn.clientId}-check-${name}`, {
        sasl: { mechanism: conn.sasl.mechanism.toUpperCase() as 'SCRAM-SHA-512', username: name, password: passwords[name] },
        ...(conn.ssl ? { tls: conn.ssl === true ? {} : conn.ssl } : {}),
      });
      try {
        await connection.connect(host, port);
        break;
      } catch (error) {
        if (Date.now() > deadline)
          throw new Error(`the broker does not accept ${name}'s credential yet: ${(error as Error).message}`, { cause: error });
        await new Promise((resolve) => setTimeout(resolve, 200));
      } finally {
        await connection.close().catch(() => undefined);
      }
    }
  }
}

function splitBroker(broker: string): [string, number] {
  const at = broker.lastIndexOf(':');
  return [broker.slice(0, at), Number(broker.slice(at + 1))];
}
