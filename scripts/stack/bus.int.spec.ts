import { APP_NAMES } from '@partner/contracts';
import { BusPasswords, createKafka, randomBusPassword, setUpBus } from '@partner/kafka';
import { busAdminConnection } from './bus';
import { freshKafka, kafka } from './stack';

// A broker of its own, formatted afresh each round: on one formatted seconds before, a credential the controller had
// accepted was still refused by the broker ("invalid credentials"), and the app started at once failed (chaos, whose
// build came from the cache). The deploy step now returns only once each principal is accepted.
const PORT = 19292;
const ROUNDS = 3;

jest.setTimeout(60_000 * ROUNDS);
afterAll(() => kafka('stop', PORT));

/** Why `app` cannot log in with `password` at the first try (no retry), or true. */
async function logsIn(app: string, password: string): Promise<true | string> {
  const client = createKafka({
    brokers: [`127.0.0.1:${PORT}`],
    clientId: `bus-spec-${app}`,
    sasl: { mechanism: 'scram-sha-512', username: app, password },
  }).admin({ retry: { retries: 0 } });
  try {
    await client.connect();
    await client.describeCluster();
    return true;
  } catch (error) {
    return (error as Error).message;
  } finally {
    await client.disconnect().catch(() => undefined);
  }
}

it('on a freshly formatted broker, every app logs in at its first try once the deploy step returns', async () => {
  for (let round = 0; round < ROUNDS; round++) {
    freshKafka(PORT);
    const passwords = Object.fromEntries(APP_NAMES.map((app) => [app, randomBusPassword()])) as BusPasswords;
    await setUpBus(
      busAdminConnection(PORT, `bus-spec-${process.pid}`),
      { partitions: 1, replicationFactor: 1, minInsyncReplicas: 1 },
      passwords,
    );
    const refused: [string, string][] = [];
    for (const app of APP_NAMES) {
      const answer = await logsIn(app, passwords[app]);
      if (answer !== true) refused.push([app, answer]);
    }
    expect([round, refused]).toEqual([round, []]);
  }
});
