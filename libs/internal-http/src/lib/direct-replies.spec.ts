import { Logger } from '@nestjs/common';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { request } from 'undici';
import { ReplyEnvelope, ReplySender } from '@partner/kafka';
import { ReplyTargets } from './internal-trust';
import { DIRECT_REPLY_PATH, DirectReplyListener, DirectReplySender } from './direct-replies';

// A real listener and sender on loopback; no broker: the Kafka reply path is a recording stand-in.

const opened: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const o of opened.splice(0)) await o.close();
});

async function listener(): Promise<{ url: string; delivered: Array<[string, ReplyEnvelope]>; listener: DirectReplyListener }> {
  const delivered: Array<[string, ReplyEnvelope]> = [];
  const l = new DirectReplyListener('127.0.0.1', 0, 'localhost');
  const url = await l.listen((id, envelope) => delivered.push([id, envelope]));
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
    for (const bad of [
      'https://127.0.0.1:1/internal/v1/replies/',
      'http://127.0.0.1:1/admin/v1/partners',
      'http://127.0.0.1:1/internal/v1/replies/?x=1',
      'file:///etc/passwd',
      'not a url',
    ]) {
      await expect(sender.send(bad, 'abc', '{}')).rejects.toThrow();
    }
  });

  it('sends only to hosts in REPLY_TARGETS: an address or name outside them is never called', async () => {
    // Any HTTP server that counts what reaches it: a reply sent anywhere would be counted.
    let hits = 0;
    const counter: Server = createServer((req, res) => {
      hits += 1;
      req.resume();
      res.writeHead(204).end();
    });
    await new Promise<void>((resolve) => counter.listen(0, '127.0.0.1', resolve));
    opened.push({ close: () => new Promise<void>((resolve) => counter.close(() => resolve())) });
    const port = (counter.address() as AddressInfo).port;

    const elsewhere = new DirectReplySender(new ReplyTargets(['10.0.0.0/8', 'gateway-1']));
    opened.push(elsewhere);
    for (const url of [
      `http://127.0.0.1:${port}${DIRECT_REPLY_PATH}`,
      `http://localhost:${port}${DIRECT_REPLY_PATH}`,
      `http://[::1]:${port}${DIRECT_REPLY_PATH}`,
    ]) {
      await expect(elsewhere.send(url, 'c-9', '{}')).rejects.toThrow('outside REPLY_TARGETS');
    }
    expect(hits).toBe(0);

    // The same listener, allowed by address: reached.
    const loopback = new DirectReplySender(new ReplyTargets(['127.0.0.1']));
    opened.push(loopback);
    await loopback.send(`http://127.0.0.1:${port}${DIRECT_REPLY_PATH}`, 'c-9', '{}');
    await expect(loopback.send(`http://localhost:${port}${DIRECT_REPLY_PATH}`, 'c-9', '{}')).rejects.toThrow('outside REPLY_TARGETS');
    expect(hits).toBe(1);
  });

  describe('ReplyTargets', () => {
    it.each([
      ['http://127.0.0.1:1/', true],
      ['http://127.8.9.10:1/', true],
      ['http://[::1]:1/', true],
      ['http://LOCALHOST:1/', true],
      ['http://10.0.0.1:1/', false],
      ['http://[::ffff:10.0.0.1]:1/', false],
      ['http://evil.example:1/', false],
      ['http://localhost.evil.example:1/', false],
    ])('by default (loopback) allows %s: %p', (url, allowed) => {
      expect(new ReplyTargets().allows(new URL(url))).toBe(allowed);
    });

    it('allows CIDR blocks and exact names, and refuses an entry that is neither', () => {
      const targets = new ReplyTargets(['10.1.0.0/16', 'fd00::/8', 'gateway-2']);
      expect(targets.allows(new URL('http://10.1.200.3:1/'))).toBe(true);
      expect(targets.allows(new URL('http://10.2.0.1:1/'))).toBe(false);
      expect(targets.allows(new URL('http://[fd12::1]:1/'))).toBe(true);
      expect(targets.allows(new URL('http://gateway-2:1/'))).toBe(true);
      expect(targets.allows(new URL('http://gateway-3:1/'))).toBe(false);
      expect(() => new ReplyTargets(['10.0.0.0/33'])).toThrow('prefix length');
      expect(() => new ReplyTargets(['http://x'])).toThrow('not an IP address');
    });
  });

  describe("ReplySender (how KafkaServer replies, with bootstrapService's DirectReplySender)", () => {
    /** A service's reply path with its Kafka producer replaced by a recorder. */
    function server(replyTargets?: ReplyTargets) {
      const kafkaReplies: Array<{ topic: string; value: string; correlationId: string }> = [];
      const kafka: ConstructorParameters<typeof ReplySender>[0] = {
        send: async (topic, message) => {
          kafkaReplies.push({ topic, value: String(message.value), correlationId: String(message.headers?.correlation_id) });
        },
      };
      const sender = new ReplySender(kafka, new DirectReplySender(replyTargets), new Logger('direct-replies-spec'));
      opened.push(sender);
      return { reply: sender.send.bind(sender), kafkaReplies };
    }

    it('replies to the listener the request names, and not on Kafka', async () => {
      const { url, delivered } = await listener();
      const { reply, kafkaReplies } = server();
      await reply({ response: { ok: true } }, 'c-1', url, 'replies.gateway.x');
      expect(delivered).toEqual([['c-1', { response: { ok: true } }]]);
      expect(kafkaReplies).toEqual([]);
    });

    it('replies on the reply topic, never to the listener, when the request names one outside REPLY_TARGETS', async () => {
      const { url, delivered } = await listener();
      const { reply, kafkaReplies } = server(new ReplyTargets(['192.168.0.0/16']));
      await reply({ response: { ok: true } }, 'c-4', url, 'replies.gateway.x');
      expect(delivered).toEqual([]);
      expect(kafkaReplies).toEqual([{ topic: 'replies.gateway.x', value: '{"response":{"ok":true}}', correlationId: 'c-4' }]);
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
