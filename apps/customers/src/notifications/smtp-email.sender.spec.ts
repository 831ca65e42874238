import { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { SendError } from './owner-message';
import { messageIdOf, SmtpEmailSender, smtpErrorText } from './smtp-email.sender';

// The e-mail adapter against a real SMTP server in this process (smtp-server, on the loopback): what it sends
// (envelope, headers, UTF-8 text), and how it reports a refusal.

interface Got {
  envelope: { from: string; to: string[] };
  headers: { from: string; to: string; subject: string; contentType: string; messageId: string };
  text: string;
}

async function server(refuse?: { code: number; text: string }) {
  const got: Got[] = [];
  const smtp = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (refuse) return callback(Object.assign(new Error(`${refuse.text} <${address.address}>`), { responseCode: refuse.code }));
      callback();
    },
    onData(stream, session, callback) {
      simpleParser(stream).then((mail) => {
        got.push({
          envelope: {
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
          },
          headers: {
            from: mail.from?.text ?? '',
            to: Array.isArray(mail.to) ? '' : (mail.to?.text ?? ''),
            subject: mail.subject ?? '',
            contentType: String(mail.headers.get('content-type') && (mail.headers.get('content-type') as { value: string }).value),
            messageId: mail.messageId ?? '',
          },
          text: mail.text ?? '',
        });
        callback();
      }, callback);
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const { port } = smtp.server.address() as AddressInfo;
  return { url: `smtp://127.0.0.1:${port}`, got, close: () => new Promise<void>((resolve) => smtp.close(() => resolve())) };
}

const sender = (url: string) =>
  new SmtpEmailSender({ url, from: 'Cadastro <nao-responda@example.com.br>', requireTls: false, timeoutMs: 3_000 }, false);
const EMAIL = {
  to: 'maria@acme.com.br',
  subject: 'Cadastro da empresa Acme',
  text: 'Olá, Maria.\n\nA empresa Acme foi cadastrada e você consta no cadastro como sócio(a).\n',
  key: 'owner-notification-42',
};

/** What the sender throws when the server refuses the recipient with `refuse`. */
async function refusal(refuse: { code: number; text: string }): Promise<unknown> {
  const s = await server(refuse);
  try {
    return await sender(s.url)
      .send(EMAIL)
      .catch((e: unknown) => e);
  } finally {
    await s.close();
  }
}

describe('SmtpEmailSender', () => {
  it("sends one message to the owner alone, from SMTP_FROM, plain UTF-8 text, and answers its Message-ID (the notification's)", async () => {
    const s = await server();
    try {
      const accepted = await sender(s.url).send(EMAIL);
      expect(accepted.providerMessageId).toBe('<owner-notification-42@example.com.br>');
      expect(s.got).toEqual([
        {
          envelope: { from: 'nao-responda@example.com.br', to: ['maria@acme.com.br'] },
          headers: {
            from: '"Cadastro" <nao-responda@example.com.br>',
            to: 'maria@acme.com.br',
            subject: EMAIL.subject,
            contentType: 'text/plain',
            messageId: '<owner-notification-42@example.com.br>',
          },
          text: EMAIL.text,
        },
      ]);
    } finally {
      await s.close();
    }
  });

  it('sends every attempt of one notification with the same Message-ID, and another notification with its own', async () => {
    const s = await server();
    try {
      await sender(s.url).send(EMAIL);
      await sender(s.url).send(EMAIL);
      await sender(s.url).send({ ...EMAIL, key: 'owner-notification-43' });
      expect(s.got.map((m) => m.headers.messageId)).toEqual([
        '<owner-notification-42@example.com.br>',
        '<owner-notification-42@example.com.br>',
        '<owner-notification-43@example.com.br>',
      ]);
    } finally {
      await s.close();
    }
  });

  it("makes the Message-ID's domain SMTP_FROM's, in either of its forms", () => {
    expect(messageIdOf('owner-notification-7', 'Cadastro de empresas <nao-responda@partner-service.localhost>')).toBe(
      '<owner-notification-7@partner-service.localhost>',
    );
    expect(messageIdOf('owner-notification-7', 'nao-responda@acme.com.br')).toBe('<owner-notification-7@acme.com.br>');
  });

  it("reports a refusal with the server's code and reply, the recipient masked; a 5xx to RCPT TO as permanent", async () => {
    const error = await refusal({ code: 550, text: '5.1.1 mailbox unavailable' });
    expect(error).toBeInstanceOf(SendError);
    expect((error as SendError).message).toMatch(/^smtp EENVELOPE 550 at RCPT TO: .*5\.1\.1 mailbox unavailable <\[masked\]>$/);
    expect((error as SendError).message).not.toContain('acme.com.br');
    expect((error as SendError).permanent).toBe(true);
  });

  it('reports a transient refusal (4xx) as not permanent', async () => {
    const error = await refusal({ code: 450, text: '4.2.1 mailbox busy' });
    expect(error).toMatchObject({ message: expect.stringMatching(/^smtp EENVELOPE 450 at RCPT TO: /), permanent: false });
  });

  it('reports a server that does not answer, as not permanent', async () => {
    const error = await sender('smtp://127.0.0.1:9')
      .send(EMAIL)
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ message: expect.stringMatching(/^smtp (ECONNECTION|ESOCKET)/), permanent: false });
    expect(smtpErrorText({ code: 'EAUTH', responseCode: 535, command: 'AUTH PLAIN', response: '535 5.7.8 Authentication failed' })).toBe(
      'smtp EAUTH 535 at AUTH PLAIN: 535 5.7.8 Authentication failed',
    );
  });
});
