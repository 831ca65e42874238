import { randomInt, randomUUID } from 'node:crypto';
import { createServer as createHttpServer, Server as HttpServer } from 'node:http';
import { createServer as createTcpServer, Server as TcpServer, AddressInfo } from 'node:net';
import { generateCnpj } from '@brazilian-utils/brazilian-utils';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { BUSINESS_CUSTOMER_EXAMPLE, CreateBusinessCustomerCommand, PartnerId } from '@partner/contracts';
import { loadConfig } from '@partner/config';
import { testPartnerId } from '@partner/testing';
import { validateContract } from '@partner/validation';
import { Database, UnitOfWork } from '@partner/db';
import { RunningSinks, startSinks } from '@partner/notification-sinks';
import { DB_SCHEMA } from '../database/db-schema';
import { CustomersConfig } from '../config/customers.config';
import { CreateBusinessCustomerUseCase } from '../business-customers/create-business-customer.use-case';
import { CustomerRepository } from '../business-customers/customer.repository';
import { ListOwnerNotificationsUseCase } from './list-owner-notifications.use-case';
import { OwnerNotification, OwnerNotificationRepository } from './owner-notification.repository';
import { EmailSender, SmsMessage, SmsSender } from './owner-message';
import { SendOwnerNotificationsUseCase } from './send-owner-notifications.use-case';
import { SmtpEmailSender } from './smtp-email.sender';
import { TwilioSmsSender } from './twilio-sms.sender';

// Integration: the notifier against the real customers schema (npm test migrates it), real SMTP servers
// (smtp-server, on the loopback: one that takes every message, one that answers 4xx, one that drops every
// connection) and a Twilio-shaped HTTP endpoint; then the local sinks (tools/notification-sinks) answering
// one recipient's messages with the provider's refusal asked for. Each test uses a partner of its own; the
// notifier serves every partner, so each test looks at its own customers' rows only.

const config = loadConfig(CustomersConfig, {
  ...process.env,
  NOTIFY_MAX_ATTEMPTS: '3',
  NOTIFY_RETRY_BASE_MS: '60000',
  NOTIFY_RETRY_MAX_MS: '3600000',
  NOTIFY_BATCH: '100',
  NOTIFY_SEND_TIMEOUT_MS: '3000',
  NOTIFY_LEASE_MS: '60000',
});
const db = new Database(config, DB_SCHEMA);
const customers = new CustomerRepository(db);
const notifications = new OwnerNotificationRepository(db);
const create = new CreateBusinessCustomerUseCase(new UnitOfWork(db, { wake: () => undefined }), customers, notifications, config);
const list = new ListOwnerNotificationsUseCase(notifications);

interface Received {
  envelopeTo: string[];
  from: string;
  subject: string;
  text: string;
}

/** An SMTP server on the loopback: takes every message (kept), or answers `refuseWith` to every DATA. */
async function smtpServer(refuseWith?: number): Promise<{ url: string; received: Received[]; close: () => Promise<void> }> {
  const received: Received[] = [];
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream).then(
        (mail) => {
          if (refuseWith)
            return callback(
              Object.assign(
                new Error(`${refuseWith < 500 ? 'try later' : 'transaction failed'} for ${session.envelope.rcptTo[0]?.address}`),
                { responseCode: refuseWith },
              ),
            );
          received.push({
            envelopeTo: session.envelope.rcptTo.map((r) => r.address),
            from: mail.from?.text ?? '',
            subject: mail.subject ?? '',
            text: mail.text ?? '',
          });
          callback();
        },
        (error: Error) => callback(error),
      );
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return { url: `smtp://127.0.0.1:${port}`, received, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** A server that accepts each TCP connection and closes it at once: an SMTP server that drops the connection. */
async function droppingServer(): Promise<{ url: string; close: () => Promise<void> }> {
  const server: TcpServer = createTcpServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `smtp://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** Twilio's Messages endpoint, as far as the adapter needs: 201 with a sid, each form kept. */
async function twilioEndpoint(): Promise<{ url: string; received: URLSearchParams[]; close: () => Promise<void> }> {
  const received: URLSearchParams[] = [];
  let n = 0;
  const server: HttpServer = createHttpServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      received.push(new URLSearchParams(body));
      res
        .writeHead(201, { 'content-type': 'application/json' })
        .end(JSON.stringify({ sid: `SM${String(++n).padStart(32, '0')}`, status: 'queued' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, received, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

const smtpSender = (url: string) =>
  new SmtpEmailSender({ url, from: 'Cadastro <nao-responda@example.com.br>', requireTls: false, timeoutMs: 3_000 }, false);
const twilioSender = (url: string) =>
  new TwilioSmsSender({
    apiUrl: url,
    accountSid: 'AC00000000000000000000000000000000',
    authToken: 'a-token-for-tests',
    sender: { from: '+15005550006' },
    timeoutMs: 3_000,
  });
/** An SMS sender that never answers wrong: for tests about e-mails. */
const quietSms: SmsSender = { send: async () => ({ providerMessageId: 'SM-quiet' }) };
const notifier = (email: EmailSender, sms: SmsSender = quietSms) => new SendOwnerNotificationsUseCase(config, notifications, email, sms);

/** An owner's e-mail and phone in place of the example's (each owner by position). */
type Contact = { email?: string; phone?: string };

/** Registers the example customer (a CNPJ of its own) for the partner, with the channels asked for; its id. */
async function register(
  partnerId: PartnerId,
  channels: { sms?: boolean; email?: boolean },
  tradeName = 'Acme',
  contacts: Contact[] = [],
): Promise<string> {
  const example = structuredClone(BUSINESS_CUSTOMER_EXAMPLE);
  const checked = validateContract(CreateBusinessCustomerCommand, {
    ...example,
    owners: example.owners.map((owner, i) => ({ ...owner, ...contacts[i] })),
    trade_name: tradeName,
    cnpj: generateCnpj({ version: 2 }),
    partner_id: partnerId,
    config: { auto_send_owner_sms: channels.sms ?? false, auto_send_owner_email: channels.email ?? false },
  });
  if (!checked.ok) throw new Error(checked.error.message);
  const reply = await create.execute(checked.value);
  if (!reply.ok) throw new Error(reply.error.code);
  return reply.data.id;
}

const rowsOf = (partnerId: PartnerId, customerId: string): Promise<OwnerNotification[]> =>
  notifications.findByCustomer(partnerId, customerId);
const secondsAfter = (t: Date, s: number) => new Date(t.getTime() + s * 1000);
const [maria, joao] = BUSINESS_CUSTOMER_EXAMPLE.owners;
const DOCUMENTS = [maria.document, joao.document];

afterAll(() => db.close());

describe('SendOwnerNotificationsUseCase: e-mails over SMTP, SMS through the Twilio API (PostgreSQL)', () => {
  it("sends each owner's e-mail and SMS to the right recipient, in Portuguese, and marks each sent with the provider's id", async () => {
    const smtp = await smtpServer();
    const twilio = await twilioEndpoint();
    try {
      const partnerId = testPartnerId();
      // A trade name of its own: the servers also get what earlier specs' registrations left pending.
      const tradeName = `Acme ${partnerId.slice(0, 8)}`;
      const id = await register(partnerId, { sms: true, email: true }, tradeName);
      expect((await rowsOf(partnerId, id)).map((n) => n.status)).toEqual(['pending', 'pending', 'pending', 'pending']);

      await notifier(smtpSender(smtp.url), twilioSender(twilio.url)).execute();

      const rows = await rowsOf(partnerId, id);
      expect(rows.map((n) => [n.ownerIndex, n.channel, n.status, n.attempts, n.lastError])).toEqual([
        [0, 'sms', 'sent', 1, null],
        [0, 'email', 'sent', 1, null],
        [1, 'sms', 'sent', 1, null],
        [1, 'email', 'sent', 1, null],
      ]);
      expect(rows.every((n) => n.sentAt !== null)).toBe(true);
      expect(rows.map((n) => n.providerMessageId)).toEqual([
        expect.stringMatching(/^SM\d{32}$/),
        expect.stringMatching(/^<.+>$/),
        expect.stringMatching(/^SM\d{32}$/),
        expect.stringMatching(/^<.+>$/),
      ]);

      const mine = smtp.received.filter((m) => m.subject === `Cadastro da empresa ${tradeName}`);
      expect(mine.map((m) => m.envelopeTo).sort()).toEqual([['joao@acme.com.br'], ['maria@acme.com.br']]);
      const toMaria = mine.find((m) => m.envelopeTo[0] === 'maria@acme.com.br');
      expect(toMaria?.from).toBe('"Cadastro" <nao-responda@example.com.br>');
      expect(toMaria?.text).toContain('Olá, Maria.');
      expect(toMaria?.text).toContain(`A empresa ${tradeName} (Acme Pagamentos Ltda) foi cadastrada`);
      const sms = twilio.received.filter((f) => (f.get('Body') ?? '').includes(tradeName));
      expect(sms.map((f) => f.get('To')).sort()).toEqual(['+5511987654321', '+5521998765432']);
      expect(sms.find((f) => f.get('To') === '+5521998765432')?.get('Body')).toBe(
        `Olá, João Souza. A empresa ${tradeName} foi cadastrada e você consta como representante. Não reconhece? Procure a instituição em que ela foi cadastrada.`,
      );
      // No CPF or CNPJ in anything sent.
      const { cnpj } = (await customers.findById(partnerId, id)) ?? { cnpj: '?' };
      for (const text of [...mine.flatMap((m) => [m.subject, m.text]), ...sms.map((f) => f.get('Body') ?? '')])
        for (const document of [...DOCUMENTS, cnpj]) expect(text).not.toContain(document);

      // Sent: a later run sends none of them again.
      await notifier(smtpSender(smtp.url), twilioSender(twilio.url)).execute(secondsAfter(new Date(), 3600));
      expect(smtp.received.filter((m) => m.subject === `Cadastro da empresa ${tradeName}`)).toHaveLength(2);
      expect(twilio.received.filter((f) => (f.get('Body') ?? '').includes(tradeName))).toHaveLength(2);
      expect(await rowsOf(partnerId, id)).toEqual(rows);
    } finally {
      await Promise.all([smtp.close(), twilio.close()]);
    }
  }, 30_000);

  it('retries an SMTP server that answers 4xx (transient) with exponential backoff, then reports the notification failed', async () => {
    const smtp = await smtpServer(451);
    try {
      const partnerId = testPartnerId();
      // Registration is not held up by the SMTP server: it only records the notifications.
      const id = await register(partnerId, { email: true });
      const send = notifier(smtpSender(smtp.url));
      const t0 = new Date();

      await send.execute(t0);
      let rows = await rowsOf(partnerId, id);
      expect(rows.map((n) => [n.status, n.attempts])).toEqual([
        ['pending', 1],
        ['pending', 1],
      ]);
      // The first wait: NOTIFY_RETRY_BASE_MS (60 s) after the attempt, jittered within its upper half.
      for (const n of rows) {
        const wait = n.nextAttemptAt.getTime() - t0.getTime();
        expect(wait).toBeGreaterThanOrEqual(30_000);
        expect(wait).toBeLessThan(62_000);
        expect(n.lastError).toMatch(/^smtp EMESSAGE 451 at DATA: /);
        expect(n.lastError).not.toMatch(/acme\.com\.br|@/);
        expect(n.lastError).toContain('[masked]');
      }

      await send.execute(secondsAfter(t0, 29)); // not due yet
      expect((await rowsOf(partnerId, id)).map((n) => n.attempts)).toEqual([1, 1]);

      await send.execute(secondsAfter(t0, 61));
      rows = await rowsOf(partnerId, id);
      expect(rows.map((n) => [n.status, n.attempts])).toEqual([
        ['pending', 2],
        ['pending', 2],
      ]);
      // The second wait doubles: at most 120 s, at least 60 s.
      for (const n of rows) {
        const wait = Math.round((n.nextAttemptAt.getTime() - secondsAfter(t0, 61).getTime()) / 1000);
        expect(wait).toBeGreaterThanOrEqual(60);
        expect(wait).toBeLessThanOrEqual(120);
      }

      await send.execute(secondsAfter(t0, 61 + 121));
      rows = await rowsOf(partnerId, id);
      expect(rows.map((n) => [n.status, n.attempts, n.sentAt])).toEqual([
        ['failed', 3, null],
        ['failed', 3, null],
      ]);
      expect(rows.every((n) => n.failedAt !== null && /^smtp EMESSAGE 451/.test(n.lastError ?? ''))).toBe(true);

      // Final: nothing more is tried.
      await send.execute(secondsAfter(t0, 86_400));
      expect((await rowsOf(partnerId, id)).map((n) => n.attempts)).toEqual([3, 3]);
      expect(smtp.received).toEqual([]);

      // The operator's view says so.
      const view = await list.execute({ partner_id: partnerId, id });
      expect(view).toEqual({
        ok: true,
        data: {
          notifications: [0, 1].map((owner_index) => ({
            id: expect.any(Number),
            owner_index,
            channel: 'email',
            destination: BUSINESS_CUSTOMER_EXAMPLE.owners[owner_index].email,
            status: 'failed',
            attempts: 3,
            created_at: expect.any(Number),
            next_attempt_at: null,
            sent_at: null,
            failed_at: expect.any(Number),
            last_error: 'smtp EMESSAGE 451 at DATA: 451 try later for [masked]',
            provider_message_id: null,
          })),
        },
      });
    } finally {
      await smtp.close();
    }
  }, 30_000);

  it('retries an SMTP server that drops the connection, and sends once it is back, keeping the last error', async () => {
    const dropping = await droppingServer();
    const smtp = await smtpServer();
    try {
      const partnerId = testPartnerId();
      const id = await register(partnerId, { email: true });
      const t0 = new Date();
      await notifier(smtpSender(dropping.url)).execute(t0);
      let rows = await rowsOf(partnerId, id);
      expect(rows.map((n) => [n.status, n.attempts])).toEqual([
        ['pending', 1],
        ['pending', 1],
      ]);
      expect(rows[0].lastError).toMatch(/^smtp (ECONNECTION|ESOCKET|ETIMEDOUT)/);

      await notifier(smtpSender(smtp.url)).execute(secondsAfter(t0, 61));
      rows = await rowsOf(partnerId, id);
      expect(rows.map((n) => [n.status, n.attempts])).toEqual([
        ['sent', 2],
        ['sent', 2],
      ]);
      expect(rows[0].lastError).toMatch(/^smtp (ECONNECTION|ESOCKET|ETIMEDOUT)/);
      expect(
        smtp.received.filter((m) => m.envelopeTo[0] === 'maria@acme.com.br' || m.envelopeTo[0] === 'joao@acme.com.br').length,
      ).toBeGreaterThanOrEqual(2);
    } finally {
      await Promise.all([dropping.close(), smtp.close()]);
    }
  }, 30_000);

  it('claims each due notification once when several notifiers run at the same time', async () => {
    const partnerId = testPartnerId();
    const ids = new Set<string>();
    for (let i = 0; i < 5; i++) ids.add(await register(partnerId, { sms: true, email: true }));
    const sent: string[] = [];
    const counting = (channel: string) => ({
      send: async (m: { to: string } | SmsMessage) => {
        const n = sent.push(`${channel}:${m.to}`);
        await new Promise((r) => setTimeout(r, 20));
        return { providerMessageId: `${channel}-${n}` };
      },
    });
    const small = loadConfig(CustomersConfig, { ...process.env, NOTIFY_BATCH: '3' });
    const notifiers = [1, 2, 3].map(() => new SendOwnerNotificationsUseCase(small, notifications, counting('email'), counting('sms')));
    for (let round = 0; round < 20; round++) {
      await Promise.all(notifiers.map((n) => n.execute()));
      const rows = (await Promise.all([...ids].map((id) => rowsOf(partnerId, id)))).flat();
      if (rows.every((n) => n.status === 'sent')) break;
    }
    const rows = (await Promise.all([...ids].map((id) => rowsOf(partnerId, id)))).flat();
    expect(rows).toHaveLength(20);
    expect(rows.every((n) => n.status === 'sent' && n.attempts === 1)).toBe(true);
    expect(new Set(rows.map((n) => n.providerMessageId)).size).toBe(20);
  }, 30_000);

  it('fails, after its lease, a notification whose last attempt never reported (its instance died)', async () => {
    const partnerId = testPartnerId();
    const id = await register(partnerId, { sms: true });
    const t0 = new Date();
    const once = loadConfig(CustomersConfig, { ...process.env, NOTIFY_MAX_ATTEMPTS: '1', NOTIFY_LEASE_MS: '60000', NOTIFY_BATCH: '100' });
    // An instance claims the rows (the attempt counted) and dies before any outcome.
    const claimed = await notifications.claimDueAcrossPartners(t0, 100, secondsAfter(t0, 60));
    expect(claimed.filter((n) => n.customerId === id)).toHaveLength(2);
    const send = new SendOwnerNotificationsUseCase(once, notifications, smtpSender('smtp://127.0.0.1:9'), quietSms);
    await send.execute(secondsAfter(t0, 30)); // leased still
    expect((await rowsOf(partnerId, id)).map((n) => n.status)).toEqual(['pending', 'pending']);
    await send.execute(secondsAfter(t0, 61));
    const rows = await rowsOf(partnerId, id);
    expect(rows.map((n) => [n.status, n.attempts, n.lastError])).toEqual([
      ['failed', 1, 'the last attempt never finished (its instance stopped during it)'],
      ['failed', 1, 'the last attempt never finished (its instance stopped during it)'],
    ]);
  });

  it("answers not_found for another partner's customer and for an unknown one", async () => {
    const partnerId = testPartnerId();
    const id = await register(partnerId, { sms: true });
    expect(await list.execute({ partner_id: testPartnerId(), id })).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect(await list.execute({ partner_id: partnerId, id: '00000000-0000-4000-8000-000000000000' })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
    const none = await register(partnerId, {});
    expect(await list.execute({ partner_id: partnerId, id: none })).toEqual({ ok: true, data: { notifications: [] } });
  });
});

describe('SendOwnerNotificationsUseCase: what the providers refuse (the local sinks, a refusal per recipient)', () => {
  // The sinks `npm start` and `npm test` run, here on ports of their own, with the adapters' credentials.
  let sinks: RunningSinks;
  beforeAll(async () => {
    sinks = await startSinks({
      smtpPort: 0,
      httpPort: 0,
      accountSid: 'AC00000000000000000000000000000000',
      authToken: 'a-token-for-tests',
    });
  });
  afterAll(() => sinks.stop());

  const sinkNotifier = () => notifier(smtpSender(sinks.smtpUrl ?? ''), twilioSender(sinks.httpUrl));
  /** A recipient no other test (nor an earlier run) uses: what the sinks' refusals are keyed by. */
  const newPhone = () => `+55119${String(randomInt(100_000_000)).padStart(8, '0')}`;
  const newEmail = () => `owner-${randomUUID()}@acme.com.br`;
  const refusedTo = (to: string) => sinks.refused.filter((r) => r.to === to);

  it("fails an SMS at once when Twilio answers 21211 (invalid 'To') or 21610 (replied STOP), keeping the code; no further attempt", async () => {
    const [invalid, unsubscribed] = [newPhone(), newPhone()];
    sinks.fail({ to: invalid, twilio: { status: 400, code: 21211, message: `The 'To' number ${invalid} is not a valid phone number.` } });
    sinks.fail({ to: unsubscribed, twilio: { status: 400, code: 21610, message: 'Attempt to send to unsubscribed recipient' } });
    const partnerId = testPartnerId();
    const id = await register(partnerId, { sms: true }, 'Acme', [{ phone: invalid }, { phone: unsubscribed }]);
    const t0 = new Date();

    await sinkNotifier().execute(t0);
    const rows = await rowsOf(partnerId, id);
    expect(rows.map((n) => [n.status, n.attempts, n.lastError])).toEqual([
      ['failed', 1, "twilio HTTP 400: code 21211: The 'To' number [masked] is not a valid phone number."],
      ['failed', 1, 'twilio HTTP 400: code 21610: Attempt to send to unsubscribed recipient'],
    ]);
    expect(rows.every((n) => n.failedAt !== null && n.sentAt === null)).toBe(true);

    // Final at once: a day later nothing was tried again (the retries would have been due after a minute).
    await sinkNotifier().execute(secondsAfter(t0, 86_400));
    expect((await rowsOf(partnerId, id)).map((n) => [n.status, n.attempts])).toEqual([
      ['failed', 1],
      ['failed', 1],
    ]);
    expect([refusedTo(invalid).length, refusedTo(unsubscribed).length]).toEqual([1, 1]);
    expect(sinks.sms.filter((m) => m.to === invalid || m.to === unsubscribed)).toEqual([]);
    // What the operator sees: failed on the first attempt, with Twilio's code.
    const view = await list.execute({ partner_id: partnerId, id });
    expect(view.ok && view.data.notifications.map((n) => [n.status, n.attempts, n.next_attempt_at, n.last_error])).toEqual(
      rows.map((n) => ['failed', 1, null, n.lastError]),
    );
  });

  it('fails an e-mail at once when the SMTP server answers 550 (mailbox unavailable), keeping the reply code; the other owner is sent', async () => {
    const unknown = newEmail();
    sinks.fail({ to: unknown, smtp: { code: 550, text: `5.1.1 <${unknown}>: mailbox unavailable` } });
    const partnerId = testPartnerId();
    const id = await register(partnerId, { email: true }, 'Acme', [{ email: unknown }]);
    const t0 = new Date();

    await sinkNotifier().execute(t0);
    await sinkNotifier().execute(secondsAfter(t0, 86_400));
    const rows = await rowsOf(partnerId, id);
    expect(rows.map((n) => [n.destination, n.status, n.attempts, n.lastError])).toEqual([
      [unknown, 'failed', 1, 'smtp EMESSAGE 550 at DATA: 550 5.1.1 <[masked]>: mailbox unavailable'],
      [joao.email, 'sent', 1, null],
    ]);
    expect(refusedTo(unknown)).toHaveLength(1);
    expect(sinks.emails.filter((m) => m.envelope.to.includes(unknown))).toEqual([]);
  });

  it('retries a transient refusal (SMTP 451, Twilio 503 and 429) and sends on the next attempt, the e-mail with one Message-ID throughout', async () => {
    const [email, phone, throttled] = [newEmail(), newPhone(), newPhone()];
    sinks.fail({ to: email, times: 1, smtp: { code: 451, text: '4.3.0 try again later' } });
    sinks.fail({ to: phone, times: 1, twilio: { status: 503, code: 20500, message: 'Service Unavailable' } });
    sinks.fail({ to: throttled, times: 1, twilio: { status: 429, code: 20429, message: 'Too Many Requests' } });
    const partnerId = testPartnerId();
    const id = await register(partnerId, { email: true, sms: true }, 'Acme', [{ email, phone }, { phone: throttled }]);
    const t0 = new Date();

    await sinkNotifier().execute(t0);
    let rows = await rowsOf(partnerId, id);
    expect(rows.map((n) => [n.ownerIndex, n.channel, n.status, n.attempts, n.lastError])).toEqual([
      [0, 'sms', 'pending', 1, 'twilio HTTP 503: code 20500: Service Unavailable'],
      [0, 'email', 'pending', 1, 'smtp EMESSAGE 451 at DATA: 451 4.3.0 try again later'],
      [1, 'sms', 'pending', 1, 'twilio HTTP 429: code 20429: Too Many Requests'],
      [1, 'email', 'sent', 1, null],
    ]);

    await sinkNotifier().execute(secondsAfter(t0, 61));
    rows = await rowsOf(partnerId, id);
    expect(rows.map((n) => [n.ownerIndex, n.channel, n.status, n.attempts])).toEqual([
      [0, 'sms', 'sent', 2],
      [0, 'email', 'sent', 2],
      [1, 'sms', 'sent', 2],
      [1, 'email', 'sent', 1],
    ]);
    expect(sinks.sms.filter((m) => m.to === phone || m.to === throttled)).toHaveLength(2);

    // The refused copy and the accepted one carry the same Message-ID: the notification's, recorded as sent.
    const notification = rows[1];
    const messageId = `<owner-notification-${notification.id}@example.com.br>`;
    expect(refusedTo(email).map((r) => r.message_id)).toEqual([messageId]);
    expect(sinks.emails.filter((m) => m.envelope.to.includes(email)).map((m) => m.message_id)).toEqual([messageId]);
    expect(notification.providerMessageId).toBe(messageId);
  });
});
