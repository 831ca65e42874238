import { createTransport } from 'nodemailer';
import { DEV_SINKS, RunningSinks, startSinks } from '@partner/notification-sinks';
import { runOperatorCli } from '../operator-cli';
import { sinkUrlOf } from './notifications-sent.command';

// `notifications sent` against the real sinks (tools/notification-sinks), on ports of their own.
let sinks: RunningSinks;
beforeAll(async () => {
  sinks = await startSinks({ ...DEV_SINKS, smtpPort: 0, httpPort: 0 });
});
afterAll(() => sinks.stop());

async function notificationsSent(env: NodeJS.ProcessEnv): Promise<{ code: number; printed: string[] }> {
  const printed: string[] = [];
  const log = jest.spyOn(console, 'log').mockImplementation((line: string) => void printed.push(line));
  try {
    return { code: await runOperatorCli(['notifications', 'sent'], { env }), printed };
  } finally {
    log.mockRestore();
  }
}

it('prints every e-mail and SMS the sinks received, one JSON line each, then the count', async () => {
  await createTransport({ url: sinks.smtpUrl ?? '' }).sendMail({
    from: 'nao-responda@example.com.br',
    to: 'maria@acme.com.br',
    subject: 'Cadastro',
    text: 'Olá',
  });
  const sms = await fetch(`${sinks.httpUrl}/2010-04-01/Accounts/${DEV_SINKS.accountSid}/Messages.json`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${DEV_SINKS.accountSid}:${DEV_SINKS.authToken}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({ To: '+5511987654321', From: '+15005550006', Body: 'Olá, Maria.' }).toString(),
  });
  expect(sms.status).toBe(201);

  const { code, printed } = await notificationsSent({ NOTIFY_SINK_URL: sinks.httpUrl });
  expect(code).toBe(0);
  expect(printed.slice(0, 2).map((line) => JSON.parse(line) as unknown)).toEqual([
    expect.objectContaining({ kind: 'email', to: ['maria@acme.com.br'], subject: 'Cadastro', text: 'Olá\n' }),
    expect.objectContaining({ kind: 'sms', to: '+5511987654321', body: 'Olá, Maria.' }),
  ]);
  expect(printed[2]).toBe(`1 e-mails (SMTP sink at ${sinks.smtpUrl}), 1 SMS (Twilio sink at ${sinks.httpUrl})`);
});

it('says where it looked when no sink answers', async () => {
  await expect(notificationsSent({ NOTIFY_SINK_URL: 'http://127.0.0.1:9' })).rejects.toThrow(
    /^no sink answers at http:\/\/127\.0\.0\.1:9\/emails .*is the stack running\?/,
  );
});

it("defaults to npm start's sinks, as npm run notify does", () => {
  expect(sinkUrlOf({ NOTIFY_SINK_PORT: process.env.NOTIFY_SINK_PORT })).toBe(`http://127.0.0.1:${DEV_SINKS.httpPort}`);
  expect(sinkUrlOf({ NOTIFY_SINK_PORT: '9025' })).toBe('http://127.0.0.1:9025');
  expect(sinkUrlOf({ NOTIFY_SINK_URL: 'http://sinks.test:8025', NOTIFY_SINK_PORT: '9025' })).toBe('http://sinks.test:8025');
});
