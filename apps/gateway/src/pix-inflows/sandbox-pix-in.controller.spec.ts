import { ok, RequestPayload, RequestReply, RequestTopic } from '@partner/contracts';
import { MessageBus } from '@partner/kafka';
import { ForwardingBus } from '../http/forwarding-bus';
import { Partner } from '../auth/partner.repository';
import { SandboxPixInController } from './sandbox-pix-in.controller';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('SandboxPixInController: the command of a call', () => {
  const sent: Array<Record<string, unknown>> = [];
  const bus = {
    request: async <T extends RequestTopic>(_topic: T, payload: RequestPayload<T>) => {
      sent.push(payload as Record<string, unknown>);
      return ok({ end_to_end_id: 'E00000000202611290000aaaaaaaaaaa' }) as RequestReply<T>;
    },
  } as Pick<MessageBus, 'request'> as MessageBus;
  const controller = new SandboxPixInController(new ForwardingBus(bus));
  const partner = { id: '7a0d1a2e-8a43-4c1e-9a0b-3f5c2a1d9e10' } as Partner;
  const body = { document: '52998224725', amount_cents: 100 };

  beforeEach(() => (sent.length = 0));

  it("gives a call without the partner's key a key of its own, so every copy of its command is one payment", async () => {
    await controller.simulate(partner, { ...body });
    await controller.simulate(partner, { ...body });
    const [first, second] = sent.map((c) => c.idempotency_key as string);
    expect(first).toMatch(UUID);
    expect(second).toMatch(UUID);
    // Two calls are two payments, as the document says of calls without a key.
    expect(first).not.toBe(second);
  });

  it("keeps the partner's key when it gives one", async () => {
    await controller.simulate(partner, { ...body, idempotency_key: '3f1c2d4e-5a6b-4c7d-8e9f-0a1b2c3d4e5f' });
    expect(sent[0]).toMatchObject({ idempotency_key: '3f1c2d4e-5a6b-4c7d-8e9f-0a1b2c3d4e5f', partner_id: partner.id });
  });
});
