import { fail, ok, RequestPayload, RequestReply, RequestTopic, Topics } from '@partner/contracts';
import { MessageBus } from '@partner/kafka';
import { testPartnerId } from '@partner/testing';
import { readUserBalances } from './user-balances';

function busWith(replies: { [T in RequestTopic]?: RequestReply<T> }): Pick<MessageBus, 'request'> {
  return {
    request: async <T extends RequestTopic>(topic: T, _payload: RequestPayload<T>): Promise<RequestReply<T>> => {
      const reply = replies[topic];
      if (!reply) throw new Error(`no reply scripted for ${topic}`);
      return reply;
    },
  };
}

const USDT = ok({ available_usdt_micros: 8_950_000, held_usdt_micros: 1_050_000 });

describe('readUserBalances', () => {
  it('combines the USDT balance (withdrawals) and the BRL one (inflows)', async () => {
    const bus = busWith({
      [Topics.WithdrawalsGetBalance]: USDT,
      [Topics.InflowsGetBalance]: ok({ available_brl_cents: 25_000, blocked_brl_cents: 0 }),
    });
    expect(await readUserBalances(bus, testPartnerId(), '52998224725')).toEqual({
      available_usdt_micros: 8_950_000,
      held_usdt_micros: 1_050_000,
      available_brl_cents: 25_000,
      blocked_brl_cents: 0,
    });
  });

  it('answers 0 BRL for a user inflows does not know (no payment account, nothing credited)', async () => {
    const bus = busWith({ [Topics.WithdrawalsGetBalance]: USDT, [Topics.InflowsGetBalance]: fail('user_not_found', 'no user') });
    expect((await readUserBalances(bus, testPartnerId(), '52998224725')).available_brl_cents).toBe(0);
  });

  it("is withdrawals' 404 user_not_found for a user it does not know", async () => {
    const bus = busWith({
      [Topics.WithdrawalsGetBalance]: fail('user_not_found', 'no user'),
      [Topics.InflowsGetBalance]: ok({ available_brl_cents: 0, blocked_brl_cents: 0 }),
    });
    await expect(readUserBalances(bus, testPartnerId(), '52998224725')).rejects.toMatchObject({
      status: 404,
      detail: { code: 'user_not_found' },
    });
  });
});
