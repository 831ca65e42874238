import { fail, ok, RequestPayload, RequestReply, RequestTopic, Topics } from '@partner/contracts';
import { MessageBus } from '@partner/kafka';
import { FakePartnerRepository } from '../auth/fake-partner-repository.spec-support';
import { RegisterUserUseCase } from './register-user.use-case';

const PARTNER = '7a0d1a2e-8a43-4c1e-9a0b-3f5c2a1d9e10';
const DOCUMENT = '52998224725';
const CREATED_AT = '2026-11-22T20:00:00.000Z';

/** A bus whose services answer from `replies`, recording what was sent and how many were in flight at once. */
function busWith(replies: { [T in RequestTopic]?: RequestReply<T> }) {
  const sent: RequestTopic[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const bus: Pick<MessageBus, 'request'> = {
    request: async <T extends RequestTopic>(topic: T, _payload: RequestPayload<T>): Promise<RequestReply<T>> => {
      sent.push(topic);
      maxInFlight = Math.max(maxInFlight, ++inFlight);
      await new Promise((resolve) => setTimeout(resolve, 5));
      inFlight--;
      const reply = replies[topic];
      if (!reply) throw new Error(`no reply scripted for ${topic}`);
      return reply;
    },
  };
  return { bus, sent, maxInFlight: () => maxInFlight };
}

/** The partners table, with PARTNER in it or not. */
function partners(exists = true) {
  const table = new FakePartnerRepository();
  if (exists) table.put({ id: PARTNER });
  return table;
}
const upserted = (created: boolean) => ok({ created, created_at: CREATED_AT });

describe('RegisterUserUseCase', () => {
  it('upserts the user in withdrawals, pix-keys and inflows at once; withdrawals says whether it is new and since when', async () => {
    const { bus, sent, maxInFlight } = busWith({
      [Topics.WithdrawalsUpsertUser]: upserted(true),
      [Topics.PixKeysUpsertUser]: upserted(false),
      [Topics.InflowsUpsertUser]: upserted(false),
    });
    const user = await new RegisterUserUseCase(partners(), bus).execute(PARTNER, DOCUMENT);
    expect(user).toEqual({ document: DOCUMENT, created: true, created_at: Math.floor(Date.parse(CREATED_AT) / 1000) });
    expect(sent.sort()).toEqual([Topics.InflowsUpsertUser, Topics.PixKeysUpsertUser, Topics.WithdrawalsUpsertUser].sort());
    expect(maxInFlight()).toBe(3);
  });

  it('is not "created" when withdrawals knew the user, whatever the others say', async () => {
    const { bus } = busWith({
      [Topics.WithdrawalsUpsertUser]: upserted(false),
      [Topics.PixKeysUpsertUser]: upserted(true),
      [Topics.InflowsUpsertUser]: upserted(true),
    });
    expect((await new RegisterUserUseCase(partners(), bus).execute(PARTNER, DOCUMENT)).created).toBe(false);
  });

  it('fails when any service refused (a retry completes the fan-out: every upsert is idempotent)', async () => {
    const { bus } = busWith({
      [Topics.WithdrawalsUpsertUser]: upserted(true),
      [Topics.PixKeysUpsertUser]: fail('invalid_request', 'no'),
      [Topics.InflowsUpsertUser]: upserted(true),
    });
    await expect(new RegisterUserUseCase(partners(), bus).execute(PARTNER, DOCUMENT)).rejects.toMatchObject({ status: 400 });
  });

  it('answers 404 partner_not_found without asking any service', async () => {
    const { bus, sent } = busWith({});
    await expect(new RegisterUserUseCase(partners(false), bus).execute(PARTNER, DOCUMENT)).rejects.toMatchObject({
      status: 404,
      detail: { code: 'partner_not_found' },
    });
    expect(sent).toEqual([]);
  });
});
