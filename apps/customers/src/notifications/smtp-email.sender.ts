import { createTransport, Transporter } from 'nodemailer';
import { errorText } from '@partner/tracing';
import { SmtpSettings } from './notifier-settings';
import { Accepted, EmailMessage, EmailSender, SendError } from './owner-message';
import { smtpFailureIsPermanent } from './permanent-failure';

/** What nodemailer's errors carry besides their message (its SMTPError and connection errors). */
interface SmtpFailure {
  code?: string;
  responseCode?: number;
  command?: string;
  response?: string;
  message?: string;
}

/**
 * Why the SMTP server did not take the e-mail, from nodemailer's error: its code (ECONNECTION, ETIMEDOUT,
 * EENVELOPE, EAUTH, ETLS...), the server's reply code and the command it answered, and the reply's text
 * masked (a server quotes the recipient's address in it: `550 5.1.1 <x@y>: user unknown`).
 */
export function smtpErrorText(error: unknown): string {
  const e = (error ?? {}) as SmtpFailure;
  const head = ['smtp', e.code, e.responseCode, e.command ? `at ${e.command}` : undefined].filter((part) => part !== undefined).join(' ');
  return errorText(`${head}: ${e.response ?? e.message ?? String(error)}`);
}

/**
 * The Message-ID of the e-mail with key `key` (EmailMessage.key): `<key@domain>`, the domain SMTP_FROM's
 * (RFC 5322 §3.6.4: the right side a domain the sender controls, so no other sender's id collides with it).
 */
export function messageIdOf(key: string, from: string): string {
  const domain = /@([^\s<>@]+)>?\s*$/.exec(from)?.[1] ?? 'localhost';
  return `<${key}@${domain}>`;
}

/**
 * The e-mail adapter: one SMTP session per message through nodemailer (SMTP_URL, SMTP_FROM), plain text in
 * UTF-8. Accepted means the server answered 250 to the message's DATA: it is queued there. The Message-ID is
 * the notification's own (messageIdOf), not one nodemailer makes up per send: a retry of an e-mail a server
 * took without our hearing of it (a timeout after DATA) reaches the owner with the same Message-ID.
 *
 * TLS: smtps:// is TLS from the start; smtp:// upgrades with STARTTLS when the server offers it, and must
 * with SMTP_REQUIRE_TLS (production's default). Certificates are verified in production; in development and
 * test (`verifyTls` false) a server's self-signed one is accepted, as local SMTP sinks have.
 */
export class SmtpEmailSender implements EmailSender {
  private readonly transport: Transporter;

  constructor(
    private readonly settings: SmtpSettings,
    verifyTls: boolean,
  ) {
    this.transport = createTransport({
      url: settings.url,
      requireTLS: settings.requireTls,
      connectionTimeout: settings.timeoutMs,
      greetingTimeout: settings.timeoutMs,
      socketTimeout: settings.timeoutMs,
      tls: { rejectUnauthorized: verifyTls },
      // nodemailer logs nothing of its own (its logger is off by default): the notifier logs each outcome.
      logger: false,
    });
  }

  async send(message: EmailMessage): Promise<Accepted> {
    try {
      const info = await this.transport.sendMail({
        from: this.settings.from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        messageId: messageIdOf(message.key, this.settings.from),
        textEncoding: 'quoted-printable',
        signal: AbortSignal.timeout(this.settings.timeoutMs),
      });
      if ((info.rejected ?? []).length > 0)
        throw Object.assign(new Error(`recipient refused: ${String(info.response)}`), { code: 'EENVELOPE' });
      return { providerMessageId: info.messageId };
    } catch (error) {
      throw new SendError('email', smtpErrorText(error), smtpFailureIsPermanent(error ?? {}));
    }
  }

  close(): void {
    this.transport.close();
  }
}
