import { Accepted, SendError, SmsMessage, SmsSender } from './owner-message';
import { TwilioSettings } from './notifier-settings';
import { errorText } from '@partner/tracing';
import { twilioFailureIsPermanent } from './permanent-failure';

/** The HTTP request the adapter sends: what the OpenAPI check (twilio-sms.sender.spec.ts) validates. */
export interface TwilioRequest {
  method: 'POST';
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** The subset of `fetch` the adapter uses (a spec passes its own). */
export type Fetch = (
  url: string,
  init: { method: string; headers: Record<string, string>; body: string; signal: AbortSignal },
) => Promise<{
  status: number;
  text(): Promise<string>;
}>;

/**
 * Create a Message (Twilio's REST API 2010-04-01, operation CreateMessage of its published OpenAPI
 * document, vendor/twilio-oai): `POST {TWILIO_API_URL}/2010-04-01/Accounts/{AccountSid}/Messages.json`,
 * HTTP Basic with the account SID and auth token, a form-encoded body of `To` (E.164), `Body` and the
 * sender, `From` or `MessagingServiceSid` (the document's conditional: one of the two).
 */
export function createMessageRequest(settings: TwilioSettings, message: SmsMessage): TwilioRequest {
  const form = new URLSearchParams({ To: message.to });
  if ('messagingServiceSid' in settings.sender) form.set('MessagingServiceSid', settings.sender.messagingServiceSid);
  else form.set('From', settings.sender.from);
  form.set('Body', message.body);
  return {
    method: 'POST',
    url: `${settings.apiUrl}/2010-04-01/Accounts/${encodeURIComponent(settings.accountSid)}/Messages.json`,
    headers: {
      authorization: `Basic ${Buffer.from(`${settings.accountSid}:${settings.authToken}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded; charset=utf-8',
      accept: 'application/json',
    },
    body: form.toString(),
  };
}

/** Twilio's error answer (`{code, message, more_info, status}`): its code and message, or null when the text is not one. */
function twilioError(responseText: string): { code?: number; message?: string } | null {
  let e: unknown;
  try {
    e = JSON.parse(responseText);
  } catch {
    return null;
  }
  if (typeof e !== 'object' || e === null) return null;
  const { code, message } = e as Record<string, unknown>;
  return { code: typeof code === 'number' ? code : undefined, message: typeof message === 'string' ? message : undefined };
}

/** Why Twilio did not create the message: the HTTP status, Twilio's error code and its message, masked (it quotes the number). */
export function twilioErrorText(status: number, responseText: string): string {
  const e = twilioError(responseText);
  const detail = e ? [e.code !== undefined ? `code ${e.code}` : undefined, e.message].filter(Boolean).join(': ') : responseText;
  return errorText(`twilio HTTP ${status}${detail ? `: ${detail}` : ''}`);
}

/**
 * The SMS adapter: Twilio's Messages API (see createMessageRequest). Accepted means 201 with the message's
 * SID (Twilio queued it; delivery to the handset is Twilio's, reported by status callbacks this service does
 * not ask for). Anything else, a timeout or a connection error is a failed attempt; a permanent one when
 * Twilio's code says this number can never get it (twilioFailureIsPermanent).
 *
 * No idempotency key is sent: CreateMessage declares none in Twilio's OpenAPI document (vendor/twilio-oai),
 * and Twilio documents `I-Twilio-Idempotency-Token` only on the webhooks it sends, not as a request header.
 */
export class TwilioSmsSender implements SmsSender {
  constructor(
    private readonly settings: TwilioSettings,
    private readonly fetchFn: Fetch = fetch,
  ) {}

  async send(message: SmsMessage): Promise<Accepted> {
    const request = createMessageRequest(this.settings, message);
    let status: number;
    let text: string;
    try {
      const res = await this.fetchFn(request.url, { ...request, signal: AbortSignal.timeout(this.settings.timeoutMs) });
      status = res.status;
      text = await res.text();
    } catch (error) {
      const e = error as { name?: string; message?: string; cause?: { code?: string } };
      throw new SendError('sms', errorText(`twilio ${e.cause?.code ?? e.name ?? 'error'}: ${e.message ?? String(error)}`));
    }
    if (status !== 201)
      throw new SendError('sms', twilioErrorText(status, text), twilioFailureIsPermanent(status, twilioError(text)?.code));
    let sid: unknown;
    try {
      sid = (JSON.parse(text) as { sid?: unknown }).sid;
    } catch {
      /* checked below */
    }
    if (typeof sid !== 'string' || sid === '') throw new SendError('sms', 'twilio HTTP 201 without a message sid');
    return { providerMessageId: sid };
  }
}
