import { createServer, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { Agent } from 'undici';
import { callCounterparty, retryAfterMs } from './counterparty-answers';

// A local HTTP server stands in for the counterparty; each test says how it answers.
let server: Server;
let url: string;
let answer: (res: ServerResponse) => void;
const agent = new Agent();
const timers = new Set<NodeJS.Timeout>();

beforeAll(async () => {
  server = createServer((_req, res) => answer(res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/x`;
});
afterEach(() => timers.forEach(clearInterval));
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await agent.close();
});

const call = (timeoutMs = 2_000, maxBytes = 1_000) => callCounterparty(url, { method: 'GET', dispatcher: agent, timeoutMs, maxBytes });

describe('callCounterparty', () => {
  it('answers the status, the body and the Retry-After the counterparty asked', async () => {
    answer = (res) => res.writeHead(429, { 'retry-after': '3' }).end('slow down');
    expect(await call()).toEqual({ status: 429, text: 'slow down', retryAfterMs: 3_000 });
    answer = (res) => res.writeHead(200).end('ok');
    expect(await call()).toEqual({ status: 200, text: 'ok' });
  });

  it('cuts an answer trickled a byte at a time at the deadline of the whole call, not of each byte', async () => {
    answer = (res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      timers.add(setInterval(() => res.write('.'), 20));
    };
    await expect(call(300)).rejects.toThrow(/abort|timeout/i);
  }, 10_000);

  it('refuses an answer larger than maxBytes', async () => {
    answer = (res) => res.writeHead(200).end('x'.repeat(2_000));
    await expect(call(2_000, 1_000)).rejects.toThrow('answer larger than 1000 bytes');
  });
});

describe('retryAfterMs', () => {
  it('reads delay-seconds and an HTTP-date (a past one: 0); nothing for an absent or unreadable header', () => {
    const now = Date.parse('2026-12-01T00:00:00Z');
    expect(retryAfterMs('120', now)).toBe(120_000);
    expect(retryAfterMs('Tue, 01 Dec 2026 00:00:30 GMT', now)).toBe(30_000);
    expect(retryAfterMs('Mon, 30 Nov 2026 23:00:00 GMT', now)).toBe(0);
    expect([retryAfterMs(undefined, now), retryAfterMs('soon', now), retryAfterMs('', now)]).toEqual([undefined, undefined, undefined]);
  });
});
