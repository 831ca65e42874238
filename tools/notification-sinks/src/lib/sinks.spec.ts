import { connect } from 'node:net';
import { join } from 'node:path';
import { createTransport } from 'nodemailer';
import type { IHttpOperation } from '@stoplight/types';
import { pollUntil, prismOperationsOf, prismViolations } from '@partner/testing';
import { parseFailure, RunningSinks, startSinks } from './sinks';

// The local sinks: the SMTP sink keeps what a real SMTP client (nodemailer) sends; the SMS sink speaks
// Twilio's Messages API: its answers are checked against Twilio's published OpenAPI document (vendor/twilio-oai)
// by Stoplight Prism's validator, and it refuses what Twilio refuses.

const ACCOUNT = { accountSid: 'AC00000000000000000000000000000000', authToken: 'local-sms-sink-token' };
const DOCUMENT = join(__dirname, '../../../../vendor/twilio-oai/spec/json/twilio_api_v2010.json');
const PATH = `/2010-04-01/Accounts/${ACCOUNT.accountSid}/Messages.json`;
const BASIC = `Basic ${Buffer.from(`${ACCOUNT.accountSid}:${ACCOUNT.authToken}`).toString('base64')}`;

let sinks: RunningSinks;
let operations: IHttpOperation[];

beforeAll(async () => {
  sinks = await startSinks({ smtpPort: 0, httpPort: 0, ...ACCOUNT });
  operations = (await prismOperationsOf(DOCUMENT)).filter((o) => o.path === '/2010-04-01/Accounts/{AccountSid}/Messages.json');
}, 60_000);
afterAll(() => sinks.stop());

async function createMessage(form: Record<string, string>, authorization = BASIC, path = PATH) {
  const body = new URLSearchParams(form).toString();
  const headers = { authorization, 'content-type': 'application/x-www-form-urlencoded' };
  const res = await fetch(`${sinks.httpUrl}${path}`, { method: 'POST', headers, body });
  const text = await res.text();
  return { status: res.status, json: JSON.parse(text) as Record<string, unknown>, text, headers, body, path };
}

describe('the SMTP sink', () => {
  it('keeps each e-mail with its envelope, headers and UTF-8 text, and lists it', async () => {
    const transport = createTransport({ url: sinks.smtpUrl ?? '', tls: { rejectUnauthorized: true } });
    const info = await transport.sendMail({
      from: 'Cadastro <nao-responda@example.com.br>',
      to: 'maria@acme.com.br',
      subject: 'Cadastro da empresa Acme',
      text: 'Olá, Maria.\n\nA empresa Acme foi cadastrada e você consta no cadastro como sócio(a).\n',
    });
    expect(info.accepted).toEqual(['maria@acme.com.br']);
    const listed = (await (await fetch(`${sinks.httpUrl}/emails`)).json()) as { emails: unknown[] };
    expect(listed.emails).toEqual([
      {
        id: expect.any(Number),
        received_at: expect.any(String),
        envelope: { from: 'nao-responda@example.com.br', to: ['maria@acme.com.br'] },
        from: '"Cadastro" <nao-responda@example.com.br>',
        to: ['maria@acme.com.br'],
        subject: 'Cadastro da empresa Acme',
        text: 'Olá, Maria.\n\nA empresa Acme foi cadastrada e você consta no cadastro como sócio(a).\n',
        message_id: info.messageId,
      },
    ]);
  });

  it('outlives a client that drops the connection in the middle of an e-mail, and serves the next one', async () => {
    const { port } = new URL(sinks.smtpUrl ?? '');
    const socket = connect(Number(port), '127.0.0.1');
    const replies: string[] = [];
    socket.on('data', (chunk) => replies.push(chunk.toString()));
    // The sink's final reply lines (`250 …`, not `250-…`): one more for each command.
    const finalReplies = () =>
      replies
        .join('')
        .split('\r\n')
        .filter((line) => /^\d{3} /.test(line));
    const answered = (count: number) =>
      pollUntil(
        'the sink answering',
        async () => finalReplies(),
        (lines) => lines.length === count,
        { timeoutMs: 5_000, intervalMs: 10 },
      );
    expect((await answered(1))[0]).toMatch(/^220 /);
    const commands = ['EHLO app.example', 'MAIL FROM:<nao-responda@example.com.br>', 'RCPT TO:<joao@acme.com.br>', 'DATA'];
    for (const [i, command] of commands.entries()) {
      socket.write(`${command}\r\n`);
      expect((await answered(i + 2))[i + 1]).toMatch(command === 'DATA' ? /^354 / : /^250 /);
    }
    socket.write('Subject: half of an e-mail\r\n\r\nOl');
    // The process sending it is killed: the sink sees a reset inside the transaction.
    socket.resetAndDestroy();

    const transport = createTransport({ url: sinks.smtpUrl ?? '' });
    const info = await transport.sendMail({ from: 'nao-responda@example.com.br', to: 'ana@acme.com.br', subject: 'Next', text: 'Olá.' });
    expect(info.accepted).toEqual(['ana@acme.com.br']);
    expect(sinks.emails.map((e) => e.subject)).toContain('Next');
    expect(sinks.emails.map((e) => e.subject)).not.toContain('half of an e-mail');
  });
});

describe("the SMS sink (Twilio's Messages API)", () => {
  it('answers 201 with a Message resource that Prism finds valid by the document, and lists the SMS', async () => {
    const res = await createMessage({ To: '+5511987654321', From: '+15005550006', Body: 'Olá, Maria.' });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({
      to: '+5511987654321',
      from: '+15005550006',
      body: 'Olá, Maria.',
      status: 'queued',
      sid: expect.stringMatching(/^SM[0-9a-f]{32}$/),
    });
    const violations = prismViolations(operations, {
      document: 'partner',
      method: 'post',
      path: res.path,
      query: '',
      requestHeaders: res.headers,
      requestBody: res.body,
      status: res.status,
      responseHeaders: { 'content-type': 'application/json' },
      responseBody: res.text,
    });
    expect(violations).toEqual([]);
    const { sms } = (await (await fetch(`${sinks.httpUrl}/sms`)).json()) as { sms: Array<Record<string, unknown>> };
    expect(sms.at(-1)).toMatchObject({ to: '+5511987654321', from: '+15005550006', body: 'Olá, Maria.', sid: res.json.sid });
  });

  it.each([
    [
      'wrong credentials',
      { To: '+5511987654321', From: '+15005550006', Body: 'x' },
      `Basic ${Buffer.from('AC00000000000000000000000000000000:nope').toString('base64')}`,
      401,
      20003,
    ],
    ['no To', { From: '+15005550006', Body: 'x' }, BASIC, 400, 21604],
    ['a To not in E.164', { To: '11987654321', From: '+15005550006', Body: 'x' }, BASIC, 400, 21211],
    ['no sender', { To: '+5511987654321', Body: 'x' }, BASIC, 400, 21603],
    ['no body', { To: '+5511987654321', From: '+15005550006' }, BASIC, 400, 21602],
  ])('refuses %s as Twilio does', async (_, form, authorization, status, code) => {
    const before = sinks.sms.length;
    const res = await createMessage(form, authorization);
    expect(res).toMatchObject({ status, json: { code, status, message: expect.any(String) } });
    expect(sinks.sms).toHaveLength(before);
  });

  it("refuses another account's path", async () => {
    const res = await createMessage({ To: '+5511987654321', From: '+15005550006', Body: 'x' }, BASIC, PATH.replace('AC000', 'AC111'));
    expect(res.status).toBe(401);
  });
});

describe('refusals on demand (SinkFailure)', () => {
  const mail = (to: string, messageId = '<a-message@example.com.br>') =>
    createTransport({ url: sinks.smtpUrl ?? '' }).sendMail({ from: 'nao-responda@example.com.br', to, subject: 'x', text: 'x', messageId });

  it("refuses one address's e-mail with the SMTP reply asked, `times` times, keeping its Message-ID; other addresses are served", async () => {
    sinks.fail({ to: 'bounce@acme.com.br', times: 1, smtp: { code: 451, text: '4.3.0 try again later' } });
    const refused = await mail('bounce@acme.com.br', '<refused-once@example.com.br>').catch((e: unknown) => e);
    expect(refused).toMatchObject({ responseCode: 451, command: 'DATA', response: '451 4.3.0 try again later' });
    expect(sinks.refused.at(-1)).toEqual({
      id: expect.any(Number),
      received_at: expect.any(String),
      channel: 'email',
      to: 'bounce@acme.com.br',
      message_id: '<refused-once@example.com.br>',
      answer: 'smtp 451 4.3.0 try again later',
    });
    const other = await mail('maria@acme.com.br');
    const again = await mail('bounce@acme.com.br'); // once only: served now
    expect([other.accepted, again.accepted]).toEqual([['maria@acme.com.br'], ['bounce@acme.com.br']]);
  });

  it("answers a number's SMS with the Twilio error asked over POST /failures, every time, and lists the refusals", async () => {
    const rule = { to: '+5511900000001', twilio: { status: 400, code: 21610, message: 'Attempt to send to unsubscribed recipient' } };
    const added = await fetch(`${sinks.httpUrl}/failures`, { method: 'POST', body: JSON.stringify(rule) });
    expect(added.status).toBe(201);
    const form = { To: '+5511900000001', From: '+15005550006', Body: 'x' };
    const answers = [await createMessage(form), await createMessage(form), await createMessage({ ...form, To: '+5511900000002' })];
    expect(answers.map((a) => [a.status, a.json.code])).toEqual([
      [400, 21610],
      [400, 21610],
      [201, undefined],
    ]);
    expect(answers[0].json).toEqual({ ...rule.twilio, more_info: 'https://www.twilio.com/docs/errors/21610' });
    const { refused } = (await (await fetch(`${sinks.httpUrl}/refused`)).json()) as { refused: Array<Record<string, unknown>> };
    expect(refused.filter((r) => r.to === '+5511900000001').map((r) => r.answer)).toEqual([
      'twilio HTTP 400 code 21610',
      'twilio HTTP 400 code 21610',
    ]);
    await fetch(`${sinks.httpUrl}/failures`, { method: 'DELETE' });
    expect((await createMessage(form)).status).toBe(201);
  });

  it.each([
    [{ twilio: { status: 400, code: 21211, message: 'x' } }, /^to: /],
    [{ to: 'a@b.c' }, /one of smtp or twilio/],
    [{ to: 'a@b.c', smtp: { code: 250, text: 'ok' } }, /^smtp: /],
    [{ to: '+5511900000001', twilio: { status: 201, code: 1, message: 'x' } }, /^twilio: /],
    [{ to: 'a@b.c', times: 0, smtp: { code: 550, text: 'no' } }, /^times: /],
  ])('refuses a malformed failure %j, saying why', async (body, why) => {
    expect(parseFailure(body)).toMatch(why);
    const res = await fetch(`${sinks.httpUrl}/failures`, { method: 'POST', body: JSON.stringify(body) });
    expect([res.status, ((await res.json()) as { error: string }).error]).toEqual([400, expect.stringMatching(why)]);
  });
});
