import { Injectable } from '@nestjs/common';
import { PATTERN_METADATA } from '@nestjs/microservices/constants';
import { Test } from '@nestjs/testing';
import { ok, PingQuery, RequestReply, Topics } from '@partner/contracts';
import { answer, requestHandlers } from './request-handlers';

// Unit: the controller requestHandlers makes, as Nest provides it (no broker: its methods are called directly).
@Injectable()
class EventsPing {
  readonly seen: PingQuery[] = [];
  async execute(query: PingQuery): Promise<RequestReply<typeof Topics.EventsPing>> {
    this.seen.push(query);
    return ok({ service: 'events', database: true });
  }
}

@Injectable()
class InflowsPing {
  async execute(query: PingQuery): Promise<RequestReply<typeof Topics.InflowsPing>> {
    return ok({ service: `inflows:${query.sent_at}`, database: false });
  }
}

const PingHandlers = requestHandlers('PingHandlers', [answer(Topics.EventsPing, EventsPing), answer(Topics.InflowsPing, InflowsPing)]);
type Methods = Record<string, (payload: unknown) => Promise<RequestReply<typeof Topics.EventsPing>>>;

async function handlers() {
  const moduleRef = await Test.createTestingModule({ controllers: [PingHandlers], providers: [EventsPing, InflowsPing] }).compile();
  return { moduleRef, methods: moduleRef.get<Methods>(PingHandlers), events: moduleRef.get(EventsPing) };
}

describe('requestHandlers', () => {
  it("answers each row's topic with its own use case, under the controller's name", async () => {
    const { moduleRef, methods } = await handlers();
    const sent_at = new Date().toISOString();
    expect(await methods[Topics.EventsPing]({ sent_at })).toEqual(ok({ service: 'events', database: true }));
    expect(await methods[Topics.InflowsPing]({ sent_at })).toEqual(ok({ service: `inflows:${sent_at}`, database: false }));
    expect(PingHandlers.name).toBe('PingHandlers');
    await moduleRef.close();
  });

  it('marks each method as the handler of its topic for the Kafka transport', () => {
    const patterns = [Topics.EventsPing, Topics.InflowsPing].map((t) => Reflect.getMetadata(PATTERN_METADATA, PingHandlers.prototype[t]));
    expect(patterns).toEqual([[Topics.EventsPing], [Topics.InflowsPing]]);
  });

  it('refuses an invalid payload before the use case runs', async () => {
    const { moduleRef, methods, events } = await handlers();
    const reply = await methods[Topics.EventsPing]({ sent_at: 'not a date' });
    expect(reply).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    expect(events.seen).toEqual([]);
    await moduleRef.close();
  });
});
