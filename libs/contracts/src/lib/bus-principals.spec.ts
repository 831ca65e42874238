import { busAcls, EVENT_CONSUMERS, eventProducerOf, requestOwnerOf, topicsOf } from './bus-principals';
import { eventTopics, requestTopics } from './contract-map';
import { APP_NAMES, SERVICE_NAMES } from './services.catalogue';
import { Topics } from './topics';

const allowed = (operation: string, topic: string) =>
  APP_NAMES.filter((app) =>
    busAcls(app).some((acl) => acl.resource === 'topic' && acl.pattern === 'literal' && acl.operation === operation && acl.name === topic),
  );

describe('the bus ACLs (busAcls)', () => {
  it('lets the gateway alone write every command and query, and only its service read it', () => {
    for (const topic of requestTopics) {
      expect([topic, allowed('write', topic)]).toEqual([topic, ['gateway']]);
      expect([topic, allowed('read', topic)]).toEqual([topic, [requestOwnerOf(topic)]]);
      expect(SERVICE_NAMES).toContain(requestOwnerOf(topic));
    }
  });

  it('lets one app write each event, and the apps EVENT_CONSUMERS names read it', () => {
    for (const topic of eventTopics) {
      expect([topic, allowed('write', topic)]).toEqual([topic, [eventProducerOf(topic)]]);
      expect([topic, allowed('read', topic).sort()]).toEqual([topic, [...EVENT_CONSUMERS[topic]].sort()]);
    }
    expect(allowed('write', Topics.WithdrawalsCreditAccount)).toEqual(['gateway']);
    expect(allowed('write', Topics.SpiPixReceived)).toEqual(['inflows']);
  });

  it('gives each app its own consumer groups, and the reply topics to the gateway (create, read, delete) and the services (write)', () => {
    for (const app of APP_NAMES) {
      const acls = busAcls(app);
      expect(
        acls
          .filter((a) => a.resource === 'group')
          .every((a) => a.name.startsWith(app === 'gateway' ? 'replies.gateway.' : app) || a.name === 'gateway.'),
      ).toBe(true);
      expect(acls.filter((a) => a.resource === 'cluster').map((a) => a.operation)).toEqual(['describe']);
      const replies = acls.filter((a) => a.resource === 'topic' && a.pattern === 'prefixed').map((a) => `${a.operation} ${a.name}`);
      expect(replies).toEqual(
        app === 'gateway' ? ['create replies.gateway.', 'read replies.gateway.', 'delete replies.gateway.'] : ['write replies.'],
      );
    }
  });

  it("checks at an app's start only the topics it may use; every topic for the admin", () => {
    expect(topicsOf('events')).toContain(Topics.WithdrawalStateChanged);
    expect(topicsOf('events')).toContain(Topics.EventsList);
    expect(topicsOf('events')).not.toContain(Topics.WithdrawalsCreditAccount);
    expect(topicsOf('withdrawals')).toEqual(expect.arrayContaining([Topics.WithdrawalsCreditAccount, Topics.WithdrawalStateChanged]));
    expect(topicsOf('admin')).toHaveLength(requestTopics.length + eventTopics.length);
    expect(topicsOf(undefined)).toHaveLength(requestTopics.length + eventTopics.length);
  });
});
