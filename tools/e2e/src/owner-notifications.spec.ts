import { generateCnpj } from '@brazilian-utils/brazilian-utils';
import { BUSINESS_CUSTOMER_EXAMPLE } from '@partner/contracts';
import type { ReceivedEmail as SinkEmail, ReceivedSms as SinkSms } from '@partner/notification-sinks';
import { ApiClient, newUuid, pollUntil, requireEnv } from '@partner/testing';
import { gatewayAdminUrl, newPartner } from './support/sandbox';

// Owner notifications end to end (docs/api.md: "Business customers", docs/operations/notifications.md):
// a registration through the partner API with both flags, then what the stack's SMTP server and SMS provider
// received, read from the local sinks npm test starts (tools/notification-sinks; NOTIFY_SINK_URL): an SMTP
// server the customers service reached over SMTP_URL, and Twilio's Messages API it reached over TWILIO_API_URL.
// Then the operator's view of the same notifications.

const URL = '/partner/v1/customers/business';
const sinkUrl = () => requireEnv('NOTIFY_SINK_URL');
const operator = () => new ApiClient(gatewayAdminUrl(), { 'x-admin-key': requireEnv('ADMIN_API_KEY') });
const notificationsPath = (partnerId: string, customerId: string) =>
  `/admin/v1/partners/${partnerId}/business-customers/${customerId}/notifications`;

interface NotificationView {
  owner_index: number;
  channel: 'sms' | 'email';
  destination: string;
  status: 'pending' | 'sent' | 'failed';
  attempts: number;
  next_attempt_at: number | null;
  sent_at: number | null;
  last_error: string | null;
  provider_message_id: string | null;
}

async function sink<T>(path: string): Promise<T> {
  const res = await fetch(`${sinkUrl()}${path}`);
  if (!res.ok) throw new Error(`sink ${path}: HTTP ${res.status}`);
  return (await res.json()) as T;
}

/** The example registration with a CNPJ and a trade name of its own (what its messages are found by), both flags on. */
function registration(tradeName: string, config = { auto_send_owner_sms: true, auto_send_owner_email: true }) {
  return { ...structuredClone(BUSINESS_CUSTOMER_EXAMPLE), cnpj: generateCnpj({ version: 2 }), trade_name: tradeName, config };
}

const [maria, joao] = BUSINESS_CUSTOMER_EXAMPLE.owners;

describe('Owner notifications end to end', () => {
  it("e-mails each owner through the SMTP server and texts each owner's phone through the SMS provider, in Portuguese, without CPF or CNPJ; the operator sees them sent", async () => {
    const { id: partnerId, api } = await newPartner('owner notifications');
    const tradeName = `Acme ${newUuid().slice(0, 8)}`;
    const body = registration(tradeName);
    const res = await api.post(URL, body);
    expect(res.status).toBe(201);
    const customerId = res.body.id as string;

    const emails = await pollUntil(
      "both owners' e-mails at the SMTP sink",
      async () => (await sink<{ emails: SinkEmail[] }>('/emails')).emails.filter((m) => m.subject === `Cadastro da empresa ${tradeName}`),
      (found) => found.length >= 2,
    );
    const sms = await pollUntil(
      "both owners' SMS at the SMS sink",
      async () => (await sink<{ sms: SinkSms[] }>('/sms')).sms.filter((m) => m.body.includes(tradeName)),
      (found) => found.length >= 2,
    );

    // The right recipients: each owner's e-mail (envelope and To) and E.164 phone, once each.
    expect(emails.map((m) => m.envelope.to).sort()).toEqual([[joao.email], [maria.email]]);
    expect(emails.map((m) => m.to).sort()).toEqual([[joao.email], [maria.email]]);
    expect(sms.map((m) => m.to).sort()).toEqual([maria.phone, joao.phone].sort());
    for (const m of sms) expect(m.to).toMatch(/^\+[1-9]\d{7,14}$/);

    // Portuguese, by name: the owner (the social name when given) and the business.
    const toMaria = emails.find((m) => m.envelope.to[0] === maria.email);
    expect(toMaria?.text).toContain('Olá, Maria.');
    expect(toMaria?.text).toContain(
      `A empresa ${tradeName} (Acme Pagamentos Ltda) foi cadastrada e você consta no cadastro como sócio(a).`,
    );
    expect(sms.find((m) => m.to === joao.phone)?.body).toBe(
      `Olá, João Souza. A empresa ${tradeName} foi cadastrada e você consta como representante. Não reconhece? Procure a instituição em que ela foi cadastrada.`,
    );
    // No CPF or CNPJ anywhere in what was sent.
    for (const text of [...emails.flatMap((m) => [m.subject, m.text]), ...sms.map((m) => m.body)]) {
      for (const document of [body.cnpj, maria.document, joao.document]) expect(text).not.toContain(document);
      expect(text).not.toMatch(/\d{11}/);
    }

    // The operator's view: every one sent, on the first attempt, with the provider's id of it.
    const view = await pollUntil(
      'the notifications recorded as sent',
      () => operator().get<{ notifications: NotificationView[] }>(notificationsPath(partnerId, customerId)),
      (r) => r.status === 200 && r.body.notifications.every((n) => n.status === 'sent'),
    );
    expect(
      view.body.notifications.map((n) => [n.owner_index, n.channel, n.destination, n.status, n.attempts, n.next_attempt_at, n.last_error]),
    ).toEqual([
      [0, 'sms', maria.phone, 'sent', 1, null, null],
      [0, 'email', maria.email, 'sent', 1, null, null],
      [1, 'sms', joao.phone, 'sent', 1, null, null],
      [1, 'email', joao.email, 'sent', 1, null, null],
    ]);
    const ids = view.body.notifications.map((n) => n.provider_message_id);
    expect(ids.filter((_, i) => i % 2 === 0).sort()).toEqual(sms.map((m) => m.sid).sort());
    expect(ids.filter((_, i) => i % 2 === 1).sort()).toEqual(emails.map((m) => m.message_id).sort());
  });

  it('sends only the channel asked for, and nothing without config', async () => {
    const { id: partnerId, api } = await newPartner('owner notifications, one channel');
    const smsOnly = `Acme ${newUuid().slice(0, 8)}`;
    const a = await api.post(URL, registration(smsOnly, { auto_send_owner_sms: true, auto_send_owner_email: false }));
    const none = await api.post(URL, { ...registration(`Acme ${newUuid().slice(0, 8)}`), config: undefined });
    expect([a.status, none.status]).toEqual([201, 201]);
    const view = await pollUntil(
      'the SMS sent',
      () => operator().get<{ notifications: NotificationView[] }>(notificationsPath(partnerId, a.body.id as string)),
      (r) => r.status === 200 && r.body.notifications.length === 2 && r.body.notifications.every((n) => n.status === 'sent'),
    );
    expect(view.body.notifications.map((n) => n.channel)).toEqual(['sms', 'sms']);
    expect((await sink<{ emails: SinkEmail[] }>('/emails')).emails.filter((m) => m.subject.includes(smsOnly))).toEqual([]);
    expect(await operator().get(notificationsPath(partnerId, none.body.id as string))).toMatchObject({
      status: 200,
      body: { notifications: [] },
    });
  });

  it("answers 404 for an unknown partner, an unknown customer or another partner's, 400 for an id that is not a UUID, 401 without the operator key", async () => {
    const { id: partnerId, api } = await newPartner('owner notifications, errors');
    const other = await newPartner('owner notifications, another');
    const created = await api.post(URL, registration(`Acme ${newUuid().slice(0, 8)}`));
    const customerId = created.body.id as string;
    expect(await operator().get(notificationsPath(newUuid(), customerId))).toMatchObject({
      status: 404,
      body: { error: 'partner_not_found' },
    });
    expect(await operator().get(notificationsPath(partnerId, newUuid()))).toMatchObject({ status: 404, body: { error: 'not_found' } });
    expect(await operator().get(notificationsPath(other.id, customerId))).toMatchObject({ status: 404, body: { error: 'not_found' } });
    expect(await operator().get(notificationsPath(partnerId, 'not-a-uuid'))).toMatchObject({
      status: 400,
      body: { error: 'invalid_request', field: 'id' },
    });
    expect(await new ApiClient(gatewayAdminUrl()).get(notificationsPath(partnerId, customerId))).toMatchObject({ status: 401 });
  });
});
