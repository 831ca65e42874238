import { fail, ok, RequestPayload, RequestReply, RequestTopic, Topics, UserAccount } from '@partner/contracts';
import { MessageBus } from '@partner/kafka';
import { FakePartnerRepository } from '../auth/fake-partner-repository.spec-support';
import { RegisterUserUseCase } from './register-user.use-case';

const PARTNER = '7a0d1a2e-8a43-4c1e-9a0b-3f5c2a1d9e10';
const DOCUMENT = '52998224725';
const CREATED_AT = '2026-11-22T20:00:00.000Z';
const ACCOUNT: UserAccount = { ispb: '99999999', branch: '0001', number: '100000002', type: 'TRAN', opened_at: CREATED_AT };

/** A bus whose services answer from `replies`, recording what was sent (in order, with the payload) and how many were in flight at once. */
function busWith(replies: { [T in RequestTopic]?: RequestReply<T> }) {
  const sent: Array<{ topic: RequestTopic; payload: unknown; at: number }> = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const bus: Pick<MessageBus, 'request'> = {
    request: async <T extends RequestTopic>(topic: T, payload: RequestPayload<T>): Promise<RequestReply<T>> => {
      sent.push({ topic, payload, at: inFlight });
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
const opened = (created: boolean) => ok({ created, created_at: CREATED_AT, account: ACCOUNT });

describe('RegisterUserUseCase', () => {
  it('upserts the user in withdrawals and inflows at once, then in pix-keys with the name and the account inflows opened', async () => {
    const { bus, sent, maxInFlight } = busWith({
      [Topics.WithdrawalsUpsertUser]: upserted(true),
      [Topics.InflowsUpsertUser]: opened(true),
      [Topics.PixKeysUpsertUser]: upserted(false),
    });
    const user = await new RegisterUserUseCase(partners(), bus).execute(PARTNER, DOCUMENT, 'Maria Souza');
    expect(user).toEqual({
      document: DOCUMENT,
      created: true,
      created_at: Math.floor(Date.parse(CREATED_AT) / 1000),
      account: { ...ACCOUNT, opened_at: Math.floor(Date.parse(CREATED_AT) / 1000) },
    });
    expect(sent.map((s) => s.topic)).toEqual([Topics.WithdrawalsUpsertUser, Topics.InflowsUpsertUser, Topics.PixKeysUpsertUser]);
    expect(maxInFlight()).toBe(2);
    expect(sent.map((s) => s.payload)).toEqual([
      { partner_id: PARTNER, document: DOCUMENT },
      { partner_id: PARTNER, document: DOCUMENT, name: 'Maria Souza' },
      { partner_id: PARTNER, document: DOCUMENT, name: 'Maria Souza', account: ACCOUNT },
    ]);
  });

  it('sends no name when none was given (the services keep the one they have)', async () => {
    const { bus, sent } = busWith({
      [Topics.WithdrawalsUpsertUser]: upserted(false),
      [Topics.InflowsUpsertUser]: opened(false),
      [Topics.PixKeysUpsertUser]: upserted(true),
    });
    expect((await new RegisterUserUseCase(partners(), bus).execute(PARTNER, DOCUMENT)).created).toBe(false);
    expect(sent[2].payload).toEqual({ partner_id: PARTNER, document: DOCUMENT, account: ACCOUNT });
  });

  it('fails when any service refused (a retry completes the fan-out: every upsert is idempotent); pix-keys waits for the account', async () => {
    const pixKeysRefused = busWith({
      [Topics.WithdrawalsUpsertUser]: upserted(true),
      [Topics.InflowsUpsertUser]: opened(true),
      [Topics.PixKeysUpsertUser]: fail('invalid_request', 'no'),
    });
    await expect(new RegisterUserUseCase(partners(), pixKeysRefused.bus).execute(PARTNER, DOCUMENT)).rejects.toMatchObject({ status: 400 });

    const inflowsRefused = busWith({
      [Topics.WithdrawalsUpsertUser]: upserted(true),
      [Topics.InflowsUpsertUser]: fail('invalid_request', 'no'),
      [Topics.PixKeysUpsertUser]: upserted(true),
    });
    await expect(new RegisterUserUseCase(partners(), inflowsRefused.bus).execute(PARTNER, DOCUMENT)).rejects.toMatchObject({ status: 400 });
    expect(inflowsRefused.sent.map((s) => s.topic)).not.toContain(Topics.PixKeysUpsertUser);
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
