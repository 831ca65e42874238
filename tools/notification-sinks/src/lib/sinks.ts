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
 *   empties both. `npm run notify -- list` prints them;
 * - refusals on demand (SinkFailure): `POST /failures` (or `fail()` in the sinks' process) makes them answer
 *   one recipient with an SMTP reply or a Twilio error, every time or the next `times` times, so that the
 *   notifier's handling of each failure mode can be seen; what they refused is listed at `GET /refused`.
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

/**
 * A refusal the sinks answer on demand, for one recipient (an e-mail address, an E.164 number): every time, or
 * the next `times` times, after which the recipient is served again. SMTP: `code` and `text` are the reply to
 * the end of the e-mail's DATA (the sink has read the message, so its Message-ID is kept with the refusal),
 * e.g. 550 (mailbox unavailable) or 451 (try again later). Twilio: the error answer to CreateMessage,
 * e.g. HTTP 400 code 21211 (invalid 'To'), 400 21610 (replied STOP), 503 code 20500 or 429 code 20429.
 */
export type SinkFailure =
  | { to: string; times?: number; smtp: { code: number; text: string } }
  | { to: string; times?: number; twilio: { status: number; code: number; message: string } };

/** A message the sinks refused by a SinkFailure, kept like what they accepted. */
export interface RefusedMessage {
  id: number;
  received_at: string;
  channel: 'email' | 'sms';
  to: string;
  /** The refused e-mail's Message-ID header (null for an SMS, or an e-mail without one). */
  message_id: string | null;
  /** What the sink answered: `smtp 451 ...`, `twilio HTTP 400 code 21211`. */
  answer: string;
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
  refused: RefusedMessage[];
  /** Refuse a recipient from now on (see SinkFailure); `POST /failures` does the same over HTTP. */
  fail(failure: SinkFailure): void;
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

/** The failures asked for that are still to be answered, oldest first. */
class Failures {
  readonly pending: SinkFailure[] = [];

  add(failure: SinkFailure): void {
    if (failure.times === undefined || failure.times > 0) this.pending.push({ ...failure });
  }

  /** The first failure of `channel` for `to`, counted as answered once (and dropped when it has no answer left). */
  take<C extends 'smtp' | 'twilio'>(channel: C, to: string): Extract<SinkFailure, Record<C, unknown>> | undefined {
    const i = this.pending.findIndex((f) => channel in f && f.to.toLowerCase() === to.toLowerCase());
    if (i < 0) return undefined;
    const failure = this.pending[i] as Extract<SinkFailure, Record<C, unknown>>;
    if (failure.times !== undefined && --failure.times <= 0) this.pending.splice(i, 1);
    return failure;
  }
}

/** A SinkFailure from a `POST /failures` body, or why it is not one. */
export function parseFailure(body: unknown): SinkFailure | string {
  const f = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  const isInt = (v: unknown, min: number, max: number) => Number.isInteger(v) && (v as number) >= min && (v as number) <= max;
  const isText = (v: unknown) => typeof v === 'string' && v !== '' && !/[\r\n]/.test(v);
  if (!isText(f.to)) return 'to: an e-mail address or an E.164 number is required';
  if (f.times !== undefined && !isInt(f.times, 1, 1_000_000)) return 'times: a positive integer, or left out (every time)';
  const smtp = f.smtp as Record<string, unknown> | undefined;
  const twilio = f.twilio as Record<string, unknown> | undefined;
  if (smtp !== undefined && twilio === undefined) {
    if (!isInt(smtp.code, 400, 599) || !isText(smtp.text)) return 'smtp: {code: 4xx or 5xx, text} is required';
    return { to: f.to as string, times: f.times as number | undefined, smtp: { code: smtp.code as number, text: smtp.text as string } };
  }
  if (twilio !== undefined && smtp === undefined) {
    if (!isInt(twilio.status, 400, 599) || !isInt(twilio.code, 1, 99_999) || !isText(twilio.message))
      return 'twilio: {status: 4xx or 5xx, code, message} is required';
    const { status, code, message } = twilio as { status: number; code: number; message: string };
    return { to: f.to as string, times: f.times as number | undefined, twilio: { status, code, message } };
  }
  return 'one of smtp or twilio is required';
}

/**
 * Twilio's CreateMessage, as its API answers it: 401 (code 20003) without the account's Basic credentials or
 * for another account, 400 for a missing or malformed To (21604, 21211), no sender (21603), no body (21602);
 * the failure asked for the To (SinkFailure); else 201 with the Message resource (every field of the
 * document's api.v2010.account.message).
 */
async function createMessage(req: IncomingMessage, res: ServerResponse, accountSid: string, o: SinkOptions, state: SinkState) {
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
  const failure = state.failures.take('twilio', to);
  if (failure) {
    const { status, code, message } = failure.twilio;
    state.refuse({ channel: 'sms', to, message_id: null, answer: `twilio HTTP ${status} code ${code}` });
    return twilioError(res, status, code, message);
  }
  const sid = `SM${randomBytes(16).toString('hex')}`;
  const now = new Date();
  keep(
    state.sms,
    { id: state.nextId(), received_at: now.toISOString(), account_sid: accountSid, sid, to, from, messaging_service_sid: service, body },
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

/** What the sinks keep while they run, shared by the SMTP sink and the HTTP side. */
interface SinkState {
  emails: ReceivedEmail[];
  sms: ReceivedSms[];
  refused: RefusedMessage[];
  failures: Failures;
  nextId(): number;
  refuse(refusal: Omit<RefusedMessage, 'id' | 'received_at'>): void;
}

/** The failure asked for one of the e-mail's recipients, if any (counted as answered). */
function smtpFailure(state: SinkState, recipients: string[]): Extract<SinkFailure, { smtp: unknown }> | undefined {
  for (const to of recipients) {
    const failure = state.failures.take('smtp', to);
    if (failure) return failure;
  }
  return undefined;
}

/** `POST /failures`: a SinkFailure as JSON, 201; 400 with why when it is not one. */
async function addFailure(req: IncomingMessage, state: SinkState): Promise<{ status: number; body: unknown }> {
  let body: unknown;
  try {
    body = JSON.parse(await readBody(req));
  } catch {
    return { status: 400, body: { error: 'a JSON body is required' } };
  }
  const failure = parseFailure(body);
  if (typeof failure === 'string') return { status: 400, body: { error: failure } };
  state.failures.add(failure);
  return { status: 201, body: failure };
}

/** Starts the sinks (see the file's comment); `stop()` closes them. */
export async function startSinks(o: SinkOptions): Promise<RunningSinks> {
  const host = o.host ?? '127.0.0.1';
  let lastId = 0;
  const state: SinkState = {
    emails: [],
    sms: [],
    refused: [],
    failures: new Failures(),
    nextId: () => ++lastId,
    refuse: (refusal) => keep(state.refused, { id: state.nextId(), received_at: new Date().toISOString(), ...refusal }, o),
  };
  const { emails, sms, refused } = state;

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
            const to = session.envelope.rcptTo.map((r) => r.address);
            const failure = smtpFailure(state, to);
            if (failure) {
              const { code, text } = failure.smtp;
              state.refuse({ channel: 'email', to: failure.to, message_id: mail.messageId ?? null, answer: `smtp ${code} ${text}` });
              return callback(Object.assign(new Error(text), { responseCode: code }));
            }
            keep(
              emails,
              {
                id: state.nextId(),
                received_at: new Date().toISOString(),
                envelope: { from: session.envelope.mailFrom ? session.envelope.mailFrom.address : null, to },
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
    else {
      smtpUrl = `smtp://${host}:${port}`;
      // A client that drops in the middle of an e-mail (an app killed mid-send) is an 'error' of the server;
      // without a listener it would end the process that hosts the sink (npm start, a test run).
      smtp.on('error', () => undefined);
    }
  }

  const http = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const messages = MESSAGES_PATH.exec(path);
    const json = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    const failed = (error: Error) => res.writeHead(500).end(error.message);
    if (req.method === 'POST' && messages) {
      createMessage(req, res, decodeURIComponent(messages[1]), o, state).catch(failed);
      return;
    }
    if (req.method === 'POST' && path === '/failures') {
      addFailure(req, state).then(({ status, body }) => json(status, body), failed);
      return;
    }
    if (req.method === 'GET' && path === '/emails') return json(200, { smtp_sink: smtpUrl, emails });
    if (req.method === 'GET' && path === '/sms') return json(200, { sms });
    if (req.method === 'GET' && path === '/refused') return json(200, { refused });
    if (req.method === 'GET' && path === '/failures') return json(200, { failures: state.failures.pending });
    if (req.method === 'GET' && path === '/')
      return json(200, { smtp_sink: smtpUrl, emails: emails.length, sms: sms.length, refused: refused.length });
    if (req.method === 'DELETE' && path === '/messages') {
      emails.length = 0;
      sms.length = 0;
      refused.length = 0;
      return json(200, {});
    }
    if (req.method === 'DELETE' && path === '/failures') {
      state.failures.pending.length = 0;
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
    refused,
    fail: (failure) => state.failures.add(failure),
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
