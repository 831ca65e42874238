import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateCnpj } from '@brazilian-utils/brazilian-utils';
import { Client } from 'pg';
import { BUSINESS_CUSTOMER_EXAMPLE } from '@partner/contracts';
import { newUuid, pollUntil, requireEnv } from '@partner/testing';
import { newPartner, newUser } from './support/sandbox';
import { OtlpReceiver, ReceivedSpan } from './support/otlp-receiver';

// Privacy (docs/operations/observability.md: "Personal data"): no CPF, CNPJ, phone or e-mail in clear in any log line the stack
// wrote during this run, in any span it exported, or in the audit log. Runs after every other
// suite but the response contract (tools/e2e/sequencer.js names the order; chaos restarts apps, whose logs
// are read here too): it searches what all of them sent. What they sent is read back from the database
// (every user, Pix key, customer and payment sender the suites made), so no suite has to register anything.

/** Every identifier the e2e suites left in the database: documents (CPF, CNPJ), phones and e-mails. */
async function identifiersInTheDatabase(): Promise<{ documents: Set<string>; phones: Set<string>; emails: Set<string> }> {
  const db = new Client({ connectionString: requireEnv('DATABASE_URL') });
  await db.connect();
  try {
    const columns = await db.query<{ table_schema: string; table_name: string; column_name: string }>(
      `SELECT table_schema, table_name, column_name FROM information_schema.columns
       WHERE table_schema IN ('withdrawals', 'pix_keys', 'inflows', 'customers', 'gateway')
         AND table_name NOT IN ('outbox_messages', 'audit_log')
         AND column_name IN ('document', 'cnpj', 'key', 'sender_tax_id')`,
    );
    const documents = new Set<string>();
    for (const c of columns.rows) {
      const { rows } = await db.query<{ value: string }>(
        `SELECT DISTINCT "${c.column_name}"::text AS value FROM "${c.table_schema}"."${c.table_name}" WHERE "${c.column_name}" IS NOT NULL`,
      );
      for (const { value } of rows) if (/^[0-9A-Z]{11,14}$/.test(value.trim())) documents.add(value.trim());
    }
    const phones = new Set<string>();
    const emails = new Set<string>();
    const { rows: bodies } = await db.query<{ body: unknown }>('SELECT body FROM customers.customers');
    const walk = (value: unknown, key = ''): void => {
      if (Array.isArray(value)) value.forEach((v) => walk(v));
      else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) walk(v, k);
      else if (typeof value === 'string' && key === 'phone') phones.add(value);
      else if (typeof value === 'string' && key === 'email') emails.add(value.toLowerCase());
      else if (typeof value === 'string' && key === 'document') documents.add(value);
    };
    for (const { body } of bodies) walk(body);
    return { documents, phones, emails };
  } finally {
    await db.end();
  }
}

/**
 * The identifiers of `wanted` found in `text`, searched without the masking code: every run of digits (of
 * upper-case letters and digits, for the alphanumeric CNPJ) is cut into every substring of each wanted
 * length, and every `@` word is compared in lower case. A phone is searched by its digits, `+` or not.
 */
function leaks(text: string, wanted: { documents: Set<string>; phones: Set<string>; emails: Set<string> }): string[] {
  const digitsOf = (phone: string) => phone.replace(/\D/g, '');
  const byDigits = new Set([...wanted.documents, ...[...wanted.phones].map(digitsOf)]);
  const lengths = new Set([...byDigits].map((d) => d.length));
  const found = new Set<string>();
  for (const [run] of text.matchAll(/[0-9A-Z]{8,}/g)) {
    for (const length of lengths)
      for (let i = 0; i + length <= run.length; i++) {
        const part = run.slice(i, i + length);
        if (byDigits.has(part)) found.add(part);
      }
  }
  const lower = text.toLowerCase();
  for (const email of wanted.emails) if (lower.includes(email)) found.add(email);
  return [...found];
}

describe('privacy: no document, phone or e-mail in clear', () => {
  let wanted: Awaited<ReturnType<typeof identifiersInTheDatabase>>;
  let receiver: OtlpReceiver;

  beforeAll(async () => {
    receiver = await OtlpReceiver.listen(Number(requireEnv('OTLP_RECEIVER_PORT')));
  });
  afterAll(() => receiver.close());

  it('in the spans of traced requests that carry documents in their path, query, body and message keys', async () => {
    const { api } = await newPartner('privacy traced');
    const document = await newUser(api, 5_000_000);
    const cnpj = generateCnpj();
    const email = `privacy.${randomBytes(4).toString('hex')}@example.com.br`;
    const phone = `+55119${String(10_000_000 + (randomBytes(4).readUInt32BE() % 89_999_999))}`;
    const traced = () => {
      const traceId = randomBytes(16).toString('hex');
      return { traceId, client: api.withHeaders({ traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01` }) };
    };
    // Each call: its trace id, and whether a service takes part (else the gateway answers alone, e.g. a 400).
    const calls: Array<() => Promise<[string, boolean]>> = [
      async () => {
        const t = traced();
        expect((await t.client.post('/partner/v1/pix-key', { document, idempotency_key: newUuid() })).status).toBe(202);
        return [t.traceId, true];
      },
      async () => {
        const t = traced();
        expect((await t.client.get(`/partner/v1/pix-key/${document}`)).status).toBeLessThan(500);
        return [t.traceId, true];
      },
      async () => {
        // A document and an e-mail in the query of a route that takes neither: the gateway's spans hold the URL.
        const t = traced();
        expect((await t.client.get(`/partner/v1/pix-in?document=${document}&email=${email}`)).status).toBeLessThan(500);
        return [t.traceId, false];
      },
      async () => {
        const t = traced();
        expect((await t.client.post('/sandbox/v1/pix-in', { document, amount_cents: 100 })).status).toBe(202);
        return [t.traceId, true];
      },
      async () => {
        const t = traced();
        const body = {
          ...BUSINESS_CUSTOMER_EXAMPLE,
          cnpj,
          email,
          phone,
          owners: BUSINESS_CUSTOMER_EXAMPLE.owners.map((o) => ({ ...o, email, phone })),
        };
        expect((await t.client.post('/partner/v1/customers/business', body)).status).toBe(201);
        return [t.traceId, true];
      },
      async () => {
        const t = traced();
        expect((await t.client.request('DELETE', `/partner/v1/pix-key/${document}`, { idempotency_key: newUuid() })).status).toBeLessThan(
          500,
        );
        return [t.traceId, true];
      },
    ];
    const traces: Array<[string, boolean]> = [];
    for (const call of calls) traces.push(await call());

    // Every trace arrived: a service's spans where one took part (its Kafka message keys name the user).
    const spans = await pollUntil(
      'the spans of every trace',
      async () => traces.map(([id, reachesService]) => ({ spans: receiver.spansOf(id), reachesService })),
      (perTrace) =>
        perTrace.every(({ spans, reachesService }) =>
          spans.some((span) => (reachesService ? span.service !== 'gateway' : span.service === 'gateway')),
        ),
      { timeoutMs: 30_000, intervalMs: 250 },
    );
    const all: ReceivedSpan[] = spans.flatMap((t) => t.spans);
    const own = { documents: new Set([document, cnpj]), phones: new Set([phone]), emails: new Set([email]) };
    const text = all.map((s) => `${s.name} ${JSON.stringify(s.attributes)}`).join('\n');
    expect(leaks(text, own)).toEqual([]);
    // The spans did see them: the masking is what hid them, not an absence of the fields.
    expect(text).toContain('[masked]');
  });

  it('in every log line the stack wrote during this run and in the audit log, for everything the suites sent', async () => {
    wanted = await identifiersInTheDatabase();
    // The run made users, keys and customers: a search for nothing would prove nothing.
    expect(wanted.documents.size).toBeGreaterThan(20);
    expect(wanted.emails.size).toBeGreaterThan(0);
    expect(wanted.phones.size).toBeGreaterThan(0);

    const dir = requireEnv('STACK_LOG_DIR');
    // The stack's own logs: not the DICT test server's (scripts/test/run.ts writes it there too), which plays
    // the Central Bank's directory, whose business is the keys (CPFs) themselves.
    const logs = readdirSync(dir).filter((f) => f.endsWith('.log') && f !== 'dict-test-server.log');
    expect(logs.length).toBeGreaterThanOrEqual(6);
    const found: string[] = [];
    let bytes = 0;
    for (const file of logs) {
      const text = readFileSync(join(dir, file), 'utf8');
      bytes += text.length;
      for (const leak of leaks(text, wanted)) {
        const line = text.split('\n').find((l) => l.includes(leak) || l.toLowerCase().includes(leak)) ?? '';
        found.push(`${file}: ${line.slice(0, 300)}`);
      }
    }
    console.log(
      `privacy: ${wanted.documents.size} documents, ${wanted.phones.size} phones, ${wanted.emails.size} e-mails searched in ${logs.length} logs (${bytes} characters)`,
    );
    expect(found).toEqual([]);

    const db = new Client({ connectionString: requireEnv('DATABASE_URL') });
    await db.connect();
    try {
      const { rows } = await db.query<{ row: string }>('SELECT row_to_json(a)::text AS row FROM gateway.audit_log a');
      expect(rows.length).toBeGreaterThan(0);
      // Operator calls on a user's path were made (the operator API's suite): their documents are masked.
      expect(rows.some((r) => r.row.includes('"document":"[masked]"'))).toBe(true);
      expect(leaks(rows.map((r) => r.row).join('\n'), wanted)).toEqual([]);
    } finally {
      await db.end();
    }
  });
});
