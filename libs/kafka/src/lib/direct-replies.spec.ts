import { request } from 'undici';
import { DIRECT_REPLY_PATH, DirectReplyListener, DirectReplySender } from './direct-replies';
import { KafkaServer } from './kafka-server';
import { ReplyEnvelope } from './reply-envelope';

// A real listener and sender on loopback; no broker: the KafkaServer below is never started, and its
// Kafka reply path is a recording stand-in.

const opened: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const o of opened.splice(0)) await o.close();
});

async function listener(): Promise<{ url: string; delivered: Array<[string, ReplyEnvelope]>; listener: DirectReplyListener }> {
  const delivered: Array<[string, ReplyEnvelope]> = [];
  const l = new DirectReplyListener((id, envelope) => delivered.push([id, envelope]));
  const url = await l.listen('127.0.0.1', 0, 'localhost');
  opened.push(l);
  return { url, delivered, listener: l };
}

describe('direct replies', () => {
  it('hands a reply to the waiting request by its correlation id, and advertises the port it bound', async () => {
    const { url, delivered } = await listener();
    const sender = new DirectReplySender();
    opened.push(sender);
    expect(url).toMatch(new RegExp(`^http://localhost:\\d+${DIRECT_REPLY_PATH}$`));

    await sender.send(url, 'a1b2-3/x y', JSON.stringify({ response: { ok: true, data: { id: 7 } } }));
    await sender.send(url, 'a1b2-4', JSON.stringify({ err: 'database went away' }));
    expect(delivered).toEqual([
      ['a1b2-3/x y', { response: { ok: true, data: { id: 7 } } }],
      ['a1b2-4', { err: 'database went away' }],
    ]);
  });

  it('answers 404 to anything but a POST of a reply, 400 to an unreadable one, and the sender reports it', async () => {
    const { url, delivered } = await listener();
    const origin = new URL(url).origin;
    expect((await request(`${origin}${DIRECT_REPLY_PATH}abc`)).statusCode).toBe(404);
    expect((await request(`${origin}/metrics`, { method: 'POST', body: '{}' })).statusCode).toBe(404);
    expect((await request(`${origin}${DIRECT_REPLY_PATH}`, { method: 'POST', body: '{}' })).statusCode).toBe(404);

    const sender = new DirectReplySender();
    opened.push(sender);
    await expect(sender.send(url, 'abc', '{not json')).rejects.toThrow('HTTP 400');
    await expect(sender.send(url, 'abc', 'null')).rejects.toThrow('HTTP 400');
    expect(delivered).toEqual([]);
  });

  it('sends only to a reply listener: the header cannot point a service at another URL', async () => {
    const sender = new DirectReplySender();
    opened.push(sender);
    for (const bad of ['https://127.0.0.1:1/internal/v1/replies/', 'http://127.0.0.1:1/admin/v1/partners', 'http://127.0.0.1:1/internal/v1/replies/?x=1', 'file:///etc/passwd', 'not a url']) {
      await expect(sender.send(bad, 'abc', '{}')).rejects.toThrow();
    }
  });

  describe('KafkaServer', () => {
    /** A service's server with its Kafka reply producer replaced by a recorder. */
    function server() {
      const kafkaReplies: Array<{ topic: string; value: string; correlationId: string }> = [];
      const s = new KafkaServer({ connection: { brokers: ['127.0.0.1:1'], clientId: 'direct-replies-spec' }, groupId: 'direct-replies-spec', maxInFlight: 4 });
      const internals = s as unknown as {
        replies: { send(topic: string, message: { value: string; headers: Record<string, string> }): Promise<void> };
        directReplies: DirectReplySender;
        reply(envelope: ReplyEnvelope, correlationId: string, replyUrl: string | undefined, replyTopic: string | undefined): Promise<void>;
      };
      internals.replies = {
        send: async (topic, message) => {
          kafkaReplies.push({ topic, value: message.value, correlationId: message.headers.correlation_id });
        },
      };
      internals.directReplies = new DirectReplySender();
      opened.push(internals.directReplies);
      return { reply: internals.reply.bind(s), kafkaReplies };
    }

    it('replies to the listener the request names, and not on Kafka', async () => {
      const { url, delivered } = await listener();
      const { reply, kafkaReplies } = server();
      await reply({ response: { ok: true } }, 'c-1', url, 'replies.gateway.x');
      expect(delivered).toEqual([['c-1', { response: { ok: true } }]]);
      expect(kafkaReplies).toEqual([]);
    });

    it('falls back to the reply topic when the listener is gone, or when the request names none', async () => {
      const { url, listener: gone } = await listener();
      await gone.close();
      const { reply, kafkaReplies } = server();
      await reply({ response: { ok: true } }, 'c-2', url, 'replies.gateway.x');
      await reply({ err: 'boom' }, 'c-3', undefined, 'replies.gateway.x');
      expect(kafkaReplies).toEqual([
        { topic: 'replies.gateway.x', value: '{"response":{"ok":true}}', correlationId: 'c-2' },
        { topic: 'replies.gateway.x', value: '{"err":"boom"}', correlationId: 'c-3' },
      ]);
    });
  });
});
