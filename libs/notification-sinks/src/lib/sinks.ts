/**
 * The local sinks of the owner notifier (docs/operations/notifications.md: "Local sinks"), for development and
 * tests only: nothing sent to them leaves the machine.
 *
 * - an SMTP server (npm `smtp-server`, nodemailer's own) on 127.0.0.1:1025 that accepts every message and
 *   keeps it, parsed (`mailparser`): envelope, From, To, Subject, text;
 * - Twilio's Messages endpoint (`POST /2010-04-01/Accounts/{AccountSid}/Messages.json`, as Twilio's
 *   published OpenAPI document describes it: vendor/twilio-oai) on 127.0.0.1:8025: checks the HTTP Basic
 *   credentials and the required fields as Twilio does, answers 201 with a Twilio-shaped Message resource,
 *   and keeps the SMS;
 * - on the same HTTP port, what they received: `GET /emails`, `GET /sms` (oldest first), `DELETE /messages`
 *   empties both. `npm run notify -- list` prints them.
 *
 * `npm start` and `npm test` start them in their own process (scripts/stack/start.ts, scripts/test/run.ts)
 * and point the customers service at them; `npm run notify -- start` runs them alone. Kept in memory, the
 * last 1,000 of each.
 */
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { simpleParser, AddressObject } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/**
 * Where the sinks listen (SMTP_SINK_PORT, NOTIFY_SINK_PORT to move them) and which credentials the Twilio
 * endpoint takes (the customers service's development defaults).
 */
export const DEV_SINKS = {
  smtpPort: Number(process.env.SMTP_SINK_PORT ?? 1025),
  httpPort: Number(process.env.NOTIFY_SINK_PORT ?? 8025),
  accountSid: 'AC00000000000000000000000000000000',
  authToken: 'local-sms-sink-token',
} as const;

/** `npm test`'s own ports (TEST_SMTP_PORT, TEST_NOTIFY_SINK_PORT), so that it runs beside a dev stack. */
export const TEST_SINKS = {
  ...DEV_SINKS,
  smtpPort: Number(process.env.TEST_SMTP_PORT ?? 11025),
  httpPort: Number(process.env.TEST_NOTIFY_SINK_PORT ?? 18025),
} as const;

/** An e-mail the SMTP sink accepted. */
export interface ReceivedEmail {
  id: number;
  received_at: string;
  /** The SMTP envelope: who the server was asked to deliver to (RCPT TO), and from (MAIL FROM). */
  envelope: { from: string | null; to: string[] };
  from: string;
  to: string[];
  subject: string;
  text: string;
  message_id: string | null;
}

/** An SMS the Twilio endpoint accepted: the form as sent, and the resource it answered. */
export interface ReceivedSms {
  id: number;
  received_at: string;
  account_sid: string;
  sid: string;
  to: string;
  from: string | null;
  messaging_service_sid: string | null;
  body: string;
}

export interface SinkOptions {
  /** The SMTP sink's port; null: no SMTP sink (SMTP_URL names another server). */
  smtpPort: number | null;
  /** The HTTP port: Twilio's endpoint and the listings. 0: any free port (the specs). */
  httpPort: number;
  accountSid: string;
  authToken: string;
  host?: string;
  /** Kept of each kind, the oldest dropped first. */
  keep?: number;
  /**
   * When the SMTP port is taken: start without the SMTP sink (`smtpUrl` null, `smtpSkipped` says why), so that
   * whatever SMTP server listens there gets the e-mails (`npm start`). Default: fail.
   */
  smtpPortTakenMeansServer?: boolean;
}

export interface RunningSinks {
  /** smtp://host:port of the SMTP sink, or null when it was not started. */
  smtpUrl: string | null;
  /** Why the SMTP sink was not started although asked for (its port was taken), else null. */
  smtpSkipped: string | null;
  /** The origin of the HTTP port: TWILIO_API_URL, and where the listings are. */
  httpUrl: string;
  emails: ReceivedEmail[];
  sms: ReceivedSms[];
  stop(): Promise<void>;
}

const E164 = /^\+[1-9]\d{6,14}$/;
const MESSAGES_PATH = /^\/2010-04-01\/Accounts\/([^/]+)\/Messages\.json$/;

const addresses = (field: AddressObject | AddressObject[] | undefined): string[] =>
  (Array.isArray(field) ? field : field ? [field] : []).flatMap((a) => a.value.map((v) => v.address ?? '')).filter(Boolean);

/** A Twilio error answer, in the shape its API sends (code, message, more_info, status). */
function twilioError(res: ServerResponse, status: number, code: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status }));
}

const rfc2822 = (d: Date) => d.toUTCString().replace('GMT', '+0000');

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/**
 * Twilio's CreateMessage, as its API answers it: 401 (code 20003) without the account's Basic credentials or
 * for another account, 400 for a missing or malformed To (21604, 21211), no sender (21603), no body (21602);
 * else 201 with the Message resource (every field of the document's api.v2010.account.message).
 */
async function createMessage(
  req: IncomingMessage,
  res: ServerResponse,
  accountSid: string,
  o: SinkOptions,
  kept: ReceivedSms[],
  nextId: () => number,
) {
  const expected = `Basic ${Buffer.from(`${o.accountSid}:${o.authToken}`).toString('base64')}`;
  if (req.headers.authorization !== expected || accountSid !== o.accountSid) return twilioError(res, 401, 20003, 'Authenticate');
  if (!/^application\/x-www-form-urlencoded\b/.test(req.headers['content-type'] ?? ''))
    return twilioError(res, 400, 20001, 'Content-Type must be application/x-www-form-urlencoded');
  const form = new URLSearchParams(await readBody(req));
  const to = form.get('To') ?? '';
  const from = form.get('From');
  const service = form.get('MessagingServiceSid');
  const body = form.get('Body') ?? '';
  if (!to) return twilioError(res, 400, 21604, "A 'To' phone number is required.");
  if (!E164.test(to)) return twilioError(res, 400, 21211, `Invalid 'To' Phone Number: ${to}`);
  if (!from && !service) return twilioError(res, 400, 21603, "A 'From' phone number is required.");
  if (from && !E164.test(from)) return twilioError(res, 400, 21212, `Invalid From Number: ${from}`);
  if (service && !/^MG[0-9a-fA-F]{32}$/.test(service)) return twilioError(res, 400, 21701, 'The Messaging Service Sid is invalid.');
  if (!body) return twilioError(res, 400, 21602, 'Message body is required.');
  const sid = `SM${randomBytes(16).toString('hex')}`;
  const now = new Date();
  keep(
    kept,
    { id: nextId(), received_at: now.toISOString(), account_sid: accountSid, sid, to, from, messaging_service_sid: service, body },
    o,
  );
  const uri = `/2010-04-01/Accounts/${accountSid}/Messages/${sid}.json`;
  res.writeHead(201, { 'content-type': 'application/json' });
  res.end(
    JSON.stringify({
      account_sid: accountSid,
      api_version: '2010-04-01',
      body,
      date_created: rfc2822(now),
      date_sent: null,
      date_updated: rfc2822(now),
      direction: 'outbound-api',
      error_code: null,
      error_message: null,
      from,
      messaging_service_sid: service,
      num_media: '0',
      num_segments: String(Math.max(1, Math.ceil(body.length / 70))),
      price: null,
      price_unit: 'USD',
      sid,
      status: service && !from ? 'accepted' : 'queued',
      subresource_uris: { media: `/2010-04-01/Accounts/${accountSid}/Messages/${sid}/Media.json` },
      to,
      uri,
    }),
  );
}

function keep<T>(list: T[], item: T, o: SinkOptions): void {
  list.push(item);
  if (list.length > (o.keep ?? 1000)) list.splice(0, list.length - (o.keep ?? 1000));
}

function listen(server: Server | SMTPServer, port: number, host: string, what: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const fail = (error: NodeJS.ErrnoException) =>
      reject(
        new Error(
          error.code === 'EADDRINUSE'
            ? `${what}: ${host}:${port} is in use (another stack's sink?${what.startsWith('SMTP') ? ' Or set SMTP_URL to use your own SMTP server' : ''})`
            : `${what}: ${error.message}`,
        ),
      );
    const events = server as NodeJS.EventEmitter;
    events.once('error', fail);
    const onListening = () => {
      events.off('error', fail);
      const address = (server instanceof SMTPServer ? server.server : server).address() as AddressInfo;
      resolve(address.port);
    };
    if (server instanceof SMTPServer) server.listen(port, host, onListening);
    else server.listen(port, host, onListening);
  });
}

/** Starts the sinks (see the file's comment); `stop()` closes them. */
export async function startSinks(o: SinkOptions): Promise<RunningSinks> {
  const host = o.host ?? '127.0.0.1';
  const emails: ReceivedEmail[] = [];
  const sms: ReceivedSms[] = [];
  let lastId = 0;
  const nextId = () => ++lastId;

  let smtp: SMTPServer | undefined;
  let smtpUrl: string | null = null;
  let smtpSkipped: string | null = null;
  if (o.smtpPort !== null) {
    smtp = new SMTPServer({
      // Plain SMTP on the loopback: no STARTTLS (a client would meet a self-signed certificate), any credentials or none.
      disabledCommands: ['STARTTLS'],
      authOptional: true,
      allowInsecureAuth: true,
      onAuth: (auth, _session, callback) => callback(null, { user: auth.username ?? 'anyone' }),
      banner: 'partner-service local SMTP sink',
      logger: false,
      onData(stream, session, callback) {
        simpleParser(stream)
          .then((mail) => {
            keep(
              emails,
              {
                id: nextId(),
                received_at: new Date().toISOString(),
                envelope: {
                  from: session.envelope.mailFrom ? session.envelope.mailFrom.address : null,
                  to: session.envelope.rcptTo.map((r) => r.address),
                },
                from: mail.from?.text ?? '',
                to: addresses(mail.to),
                subject: mail.subject ?? '',
                text: mail.text ?? '',
                message_id: mail.messageId ?? null,
              },
              o,
            );
            callback();
          })
          .catch((error: Error) => callback(error));
      },
    });
    const port = await listen(smtp, o.smtpPort, host, 'SMTP sink').catch((error: Error) => {
      if (!o.smtpPortTakenMeansServer || !/ is in use /.test(error.message)) throw error;
      smtpSkipped = `${host}:${o.smtpPort} is taken: the e-mails go to the SMTP server listening there`;
      return null;
    });
    if (port === null) smtp = undefined;
    else smtpUrl = `smtp://${host}:${port}`;
  }

  const http = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const messages = MESSAGES_PATH.exec(path);
    if (req.method === 'POST' && messages) {
      createMessage(req, res, decodeURIComponent(messages[1]), o, sms, nextId).catch((error: Error) => {
        res.writeHead(500).end(error.message);
      });
      return;
    }
    const json = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (req.method === 'GET' && path === '/emails') return json(200, { smtp_sink: smtpUrl, emails });
    if (req.method === 'GET' && path === '/sms') return json(200, { sms });
    if (req.method === 'GET' && path === '/') return json(200, { smtp_sink: smtpUrl, emails: emails.length, sms: sms.length });
    if (req.method === 'DELETE' && path === '/messages') {
      emails.length = 0;
      sms.length = 0;
      return json(200, {});
    }
    twilioError(res, 404, 20404, 'The requested resource was not found');
  });
  const httpPort = await listen(http, o.httpPort, host, 'SMS sink (Twilio Messages API)').catch(async (error: Error) => {
    await new Promise((resolve) => (smtp ? smtp.close(() => resolve(undefined)) : resolve(undefined)));
    throw error;
  });

  return {
    smtpUrl,
    smtpSkipped,
    httpUrl: `http://${host}:${httpPort}`,
    emails,
    sms,
    async stop() {
      http.closeAllConnections();
      await Promise.all([
        new Promise((resolve) => http.close(() => resolve(undefined))),
        new Promise((resolve) => (smtp ? smtp.close(() => resolve(undefined)) : resolve(undefined))),
      ]);
    },
  };
}

/**
 * The customers service's settings for the sinks: SMTP_URL (unless `smtpUrl` names another server) and
 * TWILIO_* pointing at the sink's Twilio endpoint with its credentials.
 */
export function sinkAppEnv(sinks: RunningSinks, o: Pick<SinkOptions, 'accountSid' | 'authToken'>): Record<string, string> {
  return {
    ...(sinks.smtpUrl ? { SMTP_URL: sinks.smtpUrl } : {}),
    TWILIO_API_URL: sinks.httpUrl,
    TWILIO_ACCOUNT_SID: o.accountSid,
    TWILIO_AUTH_TOKEN: o.authToken,
  };
}

/** A URL as it may be printed: without the user and password it may carry (SMTP_URL's). */
export function withoutCredentials(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  try {
    const u = new URL(url);
    u.username = '';
    u.password = '';
    return u.toString();
  } catch {
    return '(not a URL)';
  }
}
