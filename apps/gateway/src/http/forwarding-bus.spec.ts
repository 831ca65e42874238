import { fail, ok, Reply, RequestPayload, RequestReply, RequestTopic, Topics } from '@partner/contracts';
import { MessageBus } from '@partner/kafka';
import { testPartnerId } from '@partner/testing';
import { ApiError } from './api-error';
import { ForwardingBus } from './forwarding-bus';

/** A bus whose services answer `reply`, recording what was sent. */
function forwardingTo(reply: Reply<unknown>) {
  const sent: Array<{ topic: RequestTopic; payload: unknown }> = [];
  const bus = {
    request: async <T extends RequestTopic>(topic: T, payload: RequestPayload<T>) => {
      sent.push({ topic, payload });
      return reply as RequestReply<T>;
    },
  } as Pick<MessageBus, 'request'> as MessageBus;
  return { forwarding: new ForwardingBus(bus), sent };
}

const partnerId = testPartnerId();

describe('ForwardingBus', () => {
  it("sends the payload on the topic and answers the reply's data", async () => {
    const { forwarding, sent } = forwardingTo(ok({ id: 7, created: true }));
    const command = {
      partner_id: partnerId,
      document: '52998224725',
      idempotency_key: 'a1b2',
      address: '0x0',
      network: 'ETH' as const,
      fee_choice: 'LOW' as const,
      usdtmicros: 1,
    };

    await expect(forwarding.call(Topics.WithdrawalsCreate, command)).resolves.toEqual({ id: 7, created: true });
    expect(sent).toEqual([{ topic: Topics.WithdrawalsCreate, payload: command }]);
  });

  it("throws a refusal as the ApiError of its code, with the code's status and the service's detail", async () => {
    const { forwarding } = forwardingTo(fail('insufficient_funds', 'balance does not cover it'));

    const thrown = await forwarding.call(Topics.WithdrawalsGet, { partner_id: partnerId, id: 1 }).catch((error: unknown) => error);
    expect(thrown).toBeInstanceOf(ApiError);
    expect(thrown).toMatchObject({ status: 422, detail: { code: 'insufficient_funds', message: 'balance does not cover it' } });
  });
});
