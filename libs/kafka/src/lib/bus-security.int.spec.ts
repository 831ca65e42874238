import { APP_NAMES, busAcls, Topics } from '@partner/contracts';
import { AclOperationTypes, AclPermissionTypes, AclResourceTypes, ResourcePatternTypes } from 'kafkajs';
import { BusPasswords, ensureBusSecurity, randomBusPassword } from './bus-security';
import { kafkaConnectionFromEnv } from './kafka-client';
import { createKafka } from './kafkajs-client';

// Integration with the test broker (SASL/SCRAM and ACLs, as every local stack runs it), as its super user:
// the deploy step re-keys the principals and makes the ACLs exactly busAcls(), whatever was there before.

const admin = kafkaConnectionFromEnv(`bus-security-spec-${process.pid}`);
const passwords = (): BusPasswords => Object.fromEntries(APP_NAMES.map((app) => [app, randomBusPassword()])) as BusPasswords;

/** Whether `app` logs in with `password` (a metadata request, no retry). */
async function logsIn(app: string, password: string): Promise<boolean> {
  const client = createKafka({
    brokers: admin.brokers,
    clientId: `bus-security-spec-${app}`,
    sasl: { mechanism: 'scram-sha-512', username: app, password },
  }).admin({
    retry: { retries: 0 },
  });
  try {
    await client.connect();
    await client.describeCluster();
    return true;
  } catch {
    return false;
  } finally {
    await client.disconnect().catch(() => undefined);
  }
}

const stale = {
  resourceType: AclResourceTypes.TOPIC,
  resourceName: Topics.WithdrawalsCreditAccount,
  resourcePatternType: ResourcePatternTypes.LITERAL,
  principal: 'User:events',
  host: '*',
  operation: AclOperationTypes.WRITE,
  permissionType: AclPermissionTypes.ALLOW,
};

it('re-keys every principal: the new password logs in, the old one no longer does', async () => {
  const before = passwords();
  await ensureBusSecurity(admin, before);
  expect(await logsIn('withdrawals', before.withdrawals)).toBe(true);
  const after = passwords();
  await ensureBusSecurity(admin, after);
  expect(await logsIn('withdrawals', after.withdrawals)).toBe(true);
  expect(await logsIn('withdrawals', before.withdrawals)).toBe(false);
});

it('makes the ACLs exactly busAcls(): a stale one of an app principal (events writing credits) is removed, the others kept', async () => {
  const client = createKafka(admin).admin();
  await client.connect();
  try {
    await client.createAcls({ acl: [stale] });
    const result = await ensureBusSecurity(admin, passwords());
    expect(result.acls).toBe(APP_NAMES.reduce((n, app) => n + busAcls(app).length, 0));
    const held = await client.describeAcls({
      resourceType: AclResourceTypes.ANY,
      resourcePatternType: ResourcePatternTypes.ANY,
      operation: AclOperationTypes.ANY,
      permissionType: AclPermissionTypes.ANY,
    });
    const of = (principal: string) => held.resources.flatMap((r) => r.acls.filter((a) => a.principal === principal).map(() => r));
    expect(of('User:events').some((r) => r.resourceName === Topics.WithdrawalsCreditAccount)).toBe(false);
    for (const app of APP_NAMES) expect([app, of(`User:${app}`).length]).toEqual([app, busAcls(app).length]);
  } finally {
    await client.disconnect();
  }
});
