import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { IHttpOperation } from '@stoplight/types';
// Deep import, as libs/testing's prism-validation.ts does: the package's index loads its mocker too.
import { validateSecurity } from '@stoplight/prism-http/dist/validator';
import { prismOperationsOf, prismViolations } from '@partner/testing';
import { TwilioSettings } from './notifier-settings';
import { SendError } from './owner-message';
import { createMessageRequest, Fetch, TwilioRequest, TwilioSmsSender, twilioErrorText } from './twilio-sms.sender';

// The SMS adapter's request checked against Twilio's own published OpenAPI document (vendor/twilio-oai,
// verbatim) by a third-party validator, Stoplight Prism's HTTP validator (@stoplight/prism-http): path and its
// AccountSid pattern, Basic security, content type, the form body's fields and types. The document's
// `x-twilio.conditional` (a sender; a body) is an extension Prism does not read: checked here from the
// same document. A malformed request from the adapter fails these tests; the last ones prove the checks
// notice each kind of malformation.

const DOCUMENT = join(__dirname, '../../../../vendor/twilio-oai/spec/json/twilio_api_v2010.json');
const PATH = '/2010-04-01/Accounts/{AccountSid}/Messages.json';

const ACCOUNT_SID = 'AC0123456789abcdef0123456789abcdef';
const settings = (sender: TwilioSettings['sender'] = { from: '+15005550006' }): TwilioSettings => ({
  apiUrl: 'https://api.twilio.com',
  accountSid: ACCOUNT_SID,
  authToken: 'an-auth-token-of-the-account',
  sender,
  timeoutMs: 5_000,
});
const SMS = {
  to: '+5511987654321',
  body: 'Olá, Maria. A empresa Acme foi cadastrada e você consta como sócio(a). Não reconhece? Procure a instituição em que ela foi cadastrada.',
};

interface CreateMessageOperation {
  'x-twilio': { conditional: string[][] };
  responses: { '201': { content: { 'application/json': { examples: { create: { value: Record<string, unknown> } } } } } };
}

const document = JSON.parse(readFileSync(DOCUMENT, 'utf8')) as { paths: Record<string, { post: CreateMessageOperation }> };
const createMessage = document.paths[PATH].post;
/** Twilio's own example of a 201 answer, from the document. */
const CREATED = createMessage.responses['201'].content['application/json'].examples.create.value;

let operations: IHttpOperation[];
beforeAll(async () => {
  // The one operation, as Prism reads the whole document (every $ref resolved).
  operations = (await prismOperationsOf(DOCUMENT)).filter((o) => o.path === PATH && o.method === 'post');
  expect(operations).toHaveLength(1);
}, 60_000);

/** The form field a snake_case name of `x-twilio.conditional` stands for: messaging_service_sid → MessagingServiceSid. */
const formField = (name: string) => name.replace(/(^|_)([a-z])/g, (_, __, c: string) => c.toUpperCase());

/** Everything wrong with `request` by the document: Prism's findings, then the operation's conditional groups. */
function violations(request: TwilioRequest, answer: { status: number; body: unknown } = { status: 201, body: CREATED }): string[] {
  const url = new URL(request.url);
  const found = prismViolations(operations, {
    document: 'partner',
    method: request.method.toLowerCase(),
    path: url.pathname,
    query: url.search,
    requestHeaders: request.headers,
    requestBody: request.body,
    status: answer.status,
    responseHeaders: { 'content-type': 'application/json' },
    responseBody: JSON.stringify(answer.body),
  });
  // Prism's own security check (the operation's http basic scheme), which validateInput leaves to its caller.
  const security = validateSecurity({ resource: operations[0], element: { headers: request.headers, url: { path: url.pathname } } });
  if (security._tag === 'Left') found.push(...security.left.map((d) => `security: ${d.message}`));
  const form = new URLSearchParams(request.body);
  for (const group of createMessage['x-twilio'].conditional) {
    const fields = group.map(formField);
    if (!fields.some((f) => (form.get(f) ?? '') !== '')) found.push(`x-twilio.conditional: one of ${fields.join(', ')} is required`);
  }
  return found;
}

/** A fetch that records the request and answers like Twilio. */
function twilio(status = 201, body: unknown = CREATED) {
  const sent: TwilioRequest[] = [];
  const fetchFn: Fetch = async (url, init) => {
    sent.push({ method: 'POST', url, headers: init.headers, body: init.body });
    return { status, text: async () => JSON.stringify(body) };
  };
  return { sent, fetchFn };
}

describe("TwilioSmsSender against Twilio's published OpenAPI document (Prism)", () => {
  it('sends exactly the CreateMessage request the document describes, with a From number', async () => {
    const { sent, fetchFn } = twilio();
    expect(await new TwilioSmsSender(settings(), fetchFn).send(SMS)).toEqual({ providerMessageId: CREATED.sid });
    expect(sent).toHaveLength(1);
    const [request] = sent;
    expect(request.url).toBe(`https://api.twilio.com/2010-04-01/Accounts/${ACCOUNT_SID}/Messages.json`);
    expect(Object.fromEntries(new URLSearchParams(request.body))).toEqual({ To: SMS.to, From: '+15005550006', Body: SMS.body });
    expect(request.headers.authorization).toBe(`Basic ${Buffer.from(`${ACCOUNT_SID}:an-auth-token-of-the-account`).toString('base64')}`);
    expect(violations(request)).toEqual([]);
  });

  it('sends a MessagingServiceSid instead of From when a messaging service is configured', async () => {
    const { sent, fetchFn } = twilio();
    await new TwilioSmsSender(settings({ messagingServiceSid: 'MG0123456789abcdef0123456789abcdef' }), fetchFn).send(SMS);
    const form = new URLSearchParams(sent[0].body);
    expect(form.get('MessagingServiceSid')).toBe('MG0123456789abcdef0123456789abcdef');
    expect(form.has('From')).toBe(false);
    expect(violations(sent[0])).toEqual([]);
  });

  it('encodes the Portuguese body in UTF-8 and decodes to the same text', () => {
    const request = createMessageRequest(settings(), SMS);
    expect(request.headers['content-type']).toMatch(/^application\/x-www-form-urlencoded/);
    expect(new URLSearchParams(request.body).get('Body')).toBe(SMS.body);
    expect(request.body).toContain('Ol%C3%A1');
  });

  it.each([
    ['no To', (r: TwilioRequest) => ({ ...r, body: r.body.replace(/^To=[^&]*&/, '') }), /To/],
    [
      'an AccountSid that is not AC + 32 hex digits',
      (r: TwilioRequest) => ({ ...r, url: r.url.replace(ACCOUNT_SID, 'AC123') }),
      /AccountSid|path/,
    ],
    ['no sender', (r: TwilioRequest) => ({ ...r, body: r.body.replace(/&From=[^&]*/, '') }), /From, MessagingServiceSid/],
    ['no body', (r: TwilioRequest) => ({ ...r, body: r.body.replace(/&Body=[^&]*/, '') }), /Body, MediaUrl, ContentSid/],
    [
      'a malformed MessagingServiceSid',
      (r: TwilioRequest) => ({ ...r, body: `${r.body}&MessagingServiceSid=MG42` }),
      /MessagingServiceSid/,
    ],
    ['no credentials', (r: TwilioRequest) => ({ ...r, headers: { ...r.headers, authorization: '' } }), /security/],
    ['a bearer token', (r: TwilioRequest) => ({ ...r, headers: { ...r.headers, authorization: 'Bearer abc' } }), /security/],
    ['a JSON body', (r: TwilioRequest) => ({ ...r, headers: { ...r.headers, 'content-type': 'application/json' } }), /body/],
  ])('notices a request with %s (the checks are not vacuous)', (_, spoil, problem) => {
    const found = violations(spoil(createMessageRequest(settings(), SMS)));
    expect(found.join('\n')).toMatch(problem);
  });
});

describe('TwilioSmsSender outcomes', () => {
  it("reports Twilio's refusal by status and code, the number masked; 21211 as permanent", async () => {
    const refusal = { code: 21211, message: "The 'To' number +5511987654321 is not a valid phone number.", more_info: 'x', status: 400 };
    const { fetchFn } = twilio(400, refusal);
    const error = await new TwilioSmsSender(settings(), fetchFn).send(SMS).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SendError);
    expect((error as SendError).message).toBe("twilio HTTP 400: code 21211: The 'To' number [masked] is not a valid phone number.");
    expect((error as SendError).permanent).toBe(true);
    expect(twilioErrorText(503, 'upstream down')).toBe('twilio HTTP 503: upstream down');
  });

  it.each([
    [429, { code: 20429, message: 'Too Many Requests', status: 429 }],
    [503, { code: 20500, message: 'Service Unavailable', status: 503 }],
    [401, { code: 20003, message: 'Authenticate', status: 401 }],
  ])('reports HTTP %i as not permanent (retried)', async (status, body) => {
    const error = await new TwilioSmsSender(settings(), twilio(status, body).fetchFn).send(SMS).catch((e: unknown) => e);
    expect(error).toMatchObject({ message: `twilio HTTP ${status}: code ${body.code}: ${body.message}`, permanent: false });
  });

  it('fails an attempt that cannot connect, or whose 201 has no sid', async () => {
    const refused: Fetch = async () => {
      throw Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } });
    };
    await expect(new TwilioSmsSender(settings(), refused).send(SMS)).rejects.toMatchObject({
      message: 'twilio ECONNREFUSED: fetch failed',
      permanent: false,
    });
    await expect(new TwilioSmsSender(settings(), twilio(201, {}).fetchFn).send(SMS)).rejects.toThrow(
      'twilio HTTP 201 without a message sid',
    );
  });
});
