import { join } from 'node:path';
import { createTransport } from 'nodemailer';
import type { IHttpOperation } from '@stoplight/types';
import { prismOperationsOf, prismViolations } from '@partner/testing';
import { RunningSinks, startSinks } from './sinks';

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
