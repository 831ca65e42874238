import { readFileSync } from 'node:fs';
import { createServer, Server } from 'node:https';
import { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { Agent, request } from 'undici';
import { newCpf, newUuid } from '@partner/testing';
import { DICT_NAME_MAX_LENGTH, DICT_NATURAL_PERSON_NAME } from '@partner/contracts';
import {
  DICT_DOCUMENT_DIR,
  DictDocument,
  HELD_ELSEWHERE_CPF,
  HELD_ELSEWHERE_ISPB,
  portabilityOf,
  RESOLUTION_PERIOD_MS,
  StackDict,
  startStackDict,
  STACK_OPERATOR_ISPB,
  signTheQuickstartWay,
  TEST_DICT_TIMINGS,
  verifyTheQuickstartWay,
} from '@partner/dict-test-server';
import { PixKeysConfig } from '../config/pix-keys.config';
import { specConfig } from '../pix-keys/pix-key-commands.spec-support';
import { BacenDictDirectory } from './bacen-dict-directory';
import { DictCredentialsError, loadDictCredentials } from './dict-credentials';
import { DictEntry } from './dict-directory';
import { entryCid } from './dict-entry';
import { child, childText, createEntryXml, parseXml, signXml, verifiedDocument } from './dict-xml';

// Integration: pix-keys' production DICT adapter (apps/pix-keys/src/dict/bacen-dict-directory.ts) against the
// DICT test server over mutual TLS, and its requests checked against the Central Bank's published document
// itself, as vendored verbatim in vendor/bacen-pix-dict-api (DictDocument reads openapi/openapi.yaml and
// follows its $refs; Ajv compiles its schemas). No database, no broker.

let dict: StackDict;
let config: PixKeysConfig;
let adapter: BacenDictDirectory;
const document = new DictDocument();
const createEntry = document.operation('createEntry');
const deleteEntry = document.operation('deleteEntry');
const requestSchema = (op: typeof createEntry) => {
  if (!op.requestSchema) throw new Error(`${op.operationId} has no request body`);
  return op.requestSchema;
};
/** The root element of `xml`. */
const rootOf = (xml: string) => {
  const root = parseXml(xml).documentElement;
  if (!root) throw new Error('no root element');
  return root;
};

const entryFor = (cpf: string, name = 'José da Silva'): DictEntry & { key: string } => ({
  key: cpf,
  keyType: 'CPF',
  account: {
    participant: STACK_OPERATOR_ISPB,
    branch: '0001',
    accountNumber: '0007654321',
    accountType: 'TRAN',
    openingDate: new Date('2026-10-01T03:00:00Z'),
  },
  owner: { type: 'NATURAL_PERSON', taxIdNumber: cpf, name },
});

/** An https server with the test server's certificates (mutual TLS) that records what it is sent and answers 503. */
async function capturingServer(): Promise<{ server: Server; url: string; bodies: Array<{ path: string; body: string }> }> {
  const bodies: Array<{ path: string; body: string }> = [];
  const server = createServer(
    {
      key: readFileSync(dict.pki.serverKeyFile),
      cert: readFileSync(dict.pki.serverCertFile),
      ca: readFileSync(dict.pki.caFile),
      requestCert: true,
      rejectUnauthorized: true,
    },
    (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        bodies.push({ path: req.url ?? '', body: Buffer.concat(chunks).toString('utf8') });
        res.writeHead(503).end();
      });
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return { server, url: `https://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`, bodies };
}

/** The same client certificate as pix-keys, to send the test server requests the adapter would never make. */
const rawClient = () =>
  new Agent({
    connect: {
      ca: readFileSync(dict.pki.caFile),
      cert: readFileSync(dict.pki.clientCertFile),
      key: readFileSync(dict.pki.clientKeyFile),
    },
  });
const signer = () => ({ key: readFileSync(dict.pki.signingKeyFile, 'utf8'), cert: readFileSync(dict.pki.signingCertFile, 'utf8') });

async function post(path: string, body: string): Promise<{ status: number; text: string }> {
  const agent = rawClient();
  try {
    const res = await request(`${dict.server.url}${path}`, {
      method: 'POST',
      dispatcher: agent,
      headers: { 'content-type': 'application/xml' },
      body,
    });
    return { status: res.statusCode, text: await res.body.text() };
  } finally {
    await agent.close();
  }
}

beforeAll(async () => {
  dict = await startStackDict({ name: 'spec', port: 0, timings: TEST_DICT_TIMINGS });
  config = specConfig(dict.env);
  adapter = new BacenDictDirectory(config, loadDictCredentials(config));
});

afterAll(async () => {
  await adapter?.onModuleDestroy();
  await dict?.server.close();
});

describe('the published document, as vendored', () => {
  it('is the Central Bank document, version 1.8.0, with createEntry, deleteEntry, getEntry and getEntryByCid', () => {
    expect(DICT_DOCUMENT_DIR).toBe(join(__dirname, '../../../../vendor/bacen-pix-dict-api/openapi'));
    expect(document.version).toBe('1.8.0');
    expect([createEntry.method, createEntry.path, deleteEntry.method, deleteEntry.path]).toEqual([
      'post',
      '/entries/',
      'post',
      '/entries/{Key}/delete',
    ]);
    expect(document.operation('getEntry').headers.map((h) => [h.name, h.required])).toEqual([
      ['PI-RequestingParticipant', true],
      ['PI-PayerId', true],
      ['PI-EndToEndId', true],
    ]);
    const byCid = document.operation('getEntryByCid');
    expect([byCid.method, byCid.path, byCid.headers.map((h) => [h.name, h.required])]).toEqual([
      'get',
      '/cids/entries/{Cid}',
      [['PI-RequestingParticipant', true]],
    ]);
  });

  it("states the name rule the service checks before sending (NaturalPerson's Name)", () => {
    const person = load(readFileSync(join(DICT_DOCUMENT_DIR, 'schemas/NaturalPerson.yaml'), 'utf8')) as {
      properties: { Name: { pattern: string; maxLength: number } };
    };
    expect(person.properties.Name.pattern).toBe(DICT_NATURAL_PERSON_NAME.source);
    expect(person.properties.Name.maxLength).toBe(DICT_NAME_MAX_LENGTH);
  });
});

describe("BacenDictDirectory's requests against the published document", () => {
  it('sends createEntry and deleteEntry bodies, signed, that validate against the document; a wrong field fails it', async () => {
    const capture = await capturingServer();
    const captured = new BacenDictDirectory(specConfig({ ...dict.env, DICT_URL: capture.url }), loadDictCredentials(config));
    try {
      const cpf = newCpf();
      const requestId = newUuid();
      expect(await captured.createEntry({ entry: entryFor(cpf), requestId, reason: 'USER_REQUESTED' })).toMatchObject({
        outcome: 'unavailable',
      });
      expect(await captured.deleteEntry(cpf, 'USER_REQUESTED')).toMatchObject({ outcome: 'unavailable' });
      const [create, remove] = capture.bodies;
      expect([create.path, remove.path]).toEqual(['/api/v1/entries/', `/api/v1/entries/${cpf}/delete`]);

      const created = document.validateXml(requestSchema(createEntry), rootOf(create.body));
      expect(created).toEqual({
        ok: true,
        value: {
          Signature: {},
          Entry: {
            Key: cpf,
            KeyType: 'CPF',
            Account: {
              Participant: STACK_OPERATOR_ISPB,
              Branch: '0001',
              AccountNumber: '0007654321',
              AccountType: 'TRAN',
              OpeningDate: '2026-10-01T03:00:00.000Z',
            },
            Owner: { Type: 'NATURAL_PERSON', TaxIdNumber: cpf, Name: 'José da Silva' },
          },
          Reason: 'USER_REQUESTED',
          RequestId: requestId,
        },
      });
      expect(document.validateXml(requestSchema(deleteEntry), rootOf(remove.body))).toEqual({
        ok: true,
        value: { Signature: {}, Key: cpf, Participant: STACK_OPERATOR_ISPB, Reason: 'USER_REQUESTED' },
      });
      expect(create.body).toMatch(/<ds:Signature xmlns:ds="http:\/\/www\.w3\.org\/2000\/09\/xmldsig#">/);
      expect(remove.body).toMatch(/<ds:SignatureMethod Algorithm="http:\/\/www\.w3\.org\/2001\/04\/xmldsig-more#rsa-sha256"\/>/);

      const wrong: Array<[string, string, string]> = [
        ['<AccountType>TRAN</AccountType>', '<AccountType>CHEQ</AccountType>', 'Entry.Account.AccountType'],
        ['<Branch>0001</Branch>', '<Branch>00001</Branch>', 'Entry.Account.Branch'],
        [`<Participant>${STACK_OPERATOR_ISPB}</Participant>`, '<Participant>1234567</Participant>', 'Entry.Account.Participant'],
        ['<Name>José da Silva</Name>', '<Name>José da Silva 2</Name>', 'Entry.Owner.Name'],
        [`<RequestId>${requestId}</RequestId>`, '', 'RequestId'],
        [`<RequestId>${requestId}</RequestId>`, '<RequestId>not-a-uuid</RequestId>', 'RequestId'],
        ['<Reason>USER_REQUESTED</Reason>', '<Reason>BECAUSE</Reason>', 'Reason'],
        ['<OpeningDate>2026-10-01T03:00:00.000Z</OpeningDate>', '<OpeningDate>2026-10-01</OpeningDate>', 'Entry.Account.OpeningDate'],
      ];
      for (const [from, to, property] of wrong) {
        expect(create.body).toContain(from);
        const result = document.validateXml(requestSchema(createEntry), rootOf(create.body.replace(from, to)));
        expect({ property, ok: result.ok }).toEqual({ property, ok: false });
        if (!result.ok) expect(result.violations.map((v) => v.property)).toContain(property);
      }
    } finally {
      await captured.onModuleDestroy();
      capture.server.closeAllConnections();
      capture.server.close();
    }
  });

  it('registers, reads and deletes an entry through the DICT test server, which validated and verified each request', async () => {
    const cpf = newCpf();
    const requestId = newUuid();
    const created = await adapter.createEntry({ entry: entryFor(cpf, "Ana O'Neil-Araújo"), requestId, reason: 'USER_REQUESTED' });
    expect(created).toMatchObject({
      outcome: 'done',
      value: { key: cpf, owner: { name: "Ana O'Neil-Araújo" }, account: { participant: STACK_OPERATOR_ISPB } },
    });
    // The same RequestId again: DICT's idempotency answers the first answer, and keeps one entry.
    expect(await adapter.createEntry({ entry: entryFor(cpf, "Ana O'Neil-Araújo"), requestId, reason: 'USER_REQUESTED' })).toEqual(created);
    // The same RequestId for another entry is refused.
    expect(await adapter.createEntry({ entry: entryFor(cpf, 'Outra Pessoa'), requestId, reason: 'USER_REQUESTED' })).toMatchObject({
      outcome: 'refused',
      problem: { type: 'RequestIdAlreadyUsed', status: 400 },
    });
    const cid = entryCid(entryFor(cpf, "Ana O'Neil-Araújo"), requestId);
    expect(dict.server.entries.get(cpf)?.cid).toBe(cid);
    expect(await adapter.getEntryByCid(cid)).toMatchObject({ outcome: 'done', value: { key: cpf, keyType: 'CPF' } });
    expect(await adapter.deleteEntry(cpf, 'USER_REQUESTED')).toEqual({ outcome: 'done', value: { key: cpf } });
    expect(await adapter.getEntryByCid(cid)).toMatchObject({ outcome: 'refused', problem: { type: 'NotFound', status: 404 } });
    expect(dict.server.requests.filter((r) => r.key === cpf).map((r) => [r.operationId, r.status, r.signed])).toEqual([
      ['createEntry', 201, true],
      ['createEntry', 201, true],
      ['createEntry', 400, true],
      ['getEntryByCid', 200, false],
      ['deleteEntry', 200, true],
    ]);
  });

  it('registers an EVP key: sent without Key, DICT generates a UUID, a retry of the RequestId answers the same one', async () => {
    const cpf = newCpf();
    const requestId = newUuid();
    const { account, owner } = entryFor(cpf);
    const evp: DictEntry = { keyType: 'EVP', account: { ...account, accountNumber: String(Date.now()).slice(-10) }, owner };
    const created = await adapter.createEntry({ entry: evp, requestId, reason: 'USER_REQUESTED' });
    expect(created).toMatchObject({ outcome: 'done', value: { keyType: 'EVP', owner: { taxIdNumber: cpf } } });
    const key = created.outcome === 'done' ? created.value.key : '';
    expect(key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    // A lost answer's retry must not make a second key: the same RequestId answers the same EVP.
    expect(await adapter.createEntry({ entry: evp, requestId, reason: 'USER_REQUESTED' })).toEqual(created);
    expect([...dict.server.entries.values()].filter((e) => e.taxIdNumber === cpf).map((e) => e.key)).toEqual([key]);
    // Read back by the CID over the generated key, then deleted by it.
    expect(await adapter.getEntryByCid(entryCid({ ...evp, key }, requestId))).toMatchObject({ outcome: 'done', value: { key } });
    expect(await adapter.deleteEntry(key, 'USER_REQUESTED')).toEqual({ outcome: 'done', value: { key } });
    // A participant never chooses an EVP: one sent with a Key is refused, as is a sixth key on one account.
    expect(await adapter.createEntry({ entry: { ...evp, key: newUuid() }, requestId: newUuid(), reason: 'USER_REQUESTED' })).toMatchObject({
      outcome: 'refused',
      problem: { type: 'EntryInvalid' },
    });
    const full = { ...evp, account: { ...evp.account, accountNumber: `9${String(Date.now()).slice(-9)}` } };
    for (let i = 0; i < 5; i++)
      expect(await adapter.createEntry({ entry: full, requestId: newUuid(), reason: 'USER_REQUESTED' })).toMatchObject({ outcome: 'done' });
    expect(await adapter.createEntry({ entry: full, requestId: newUuid(), reason: 'USER_REQUESTED' })).toMatchObject({
      outcome: 'refused',
      problem: { type: 'EntryLimitExceeded' },
    });
  });

  it('is refused by the test server when the body breaks the schema, the signature is not the participant’s, or the body was changed after signing', async () => {
    const cpf = newCpf();
    const requestId = newUuid();
    const good = createEntryXml({ entry: entryFor(cpf), requestId, reason: 'USER_REQUESTED' });

    const invalid = await post(
      '/entries/',
      signXml(good.replace('<AccountType>TRAN</AccountType>', '<AccountType>CHEQ</AccountType>'), signer()),
    );
    expect(invalid.status).toBe(400);
    expect(invalid.text).toContain('/error/EntryInvalid</type>');
    expect(invalid.text).toContain('<property>Entry.Account.AccountType</property>');

    const unsigned = await post('/entries/', good);
    expect([unsigned.status, unsigned.text]).toEqual([400, expect.stringContaining('/error/RequestSignatureInvalid</type>')]);

    const otherSigner = {
      key: readFileSync(dict.pki.dictSigningKeyFile, 'utf8'),
      cert: readFileSync(dict.pki.dictSigningCertFile, 'utf8'),
    };
    const foreign = await post('/entries/', signXml(good, otherSigner));
    expect([foreign.status, foreign.text]).toEqual([400, expect.stringContaining('/error/RequestSignatureInvalid</type>')]);

    const tampered = await post('/entries/', signXml(good, signer()).replace('<Branch>0001</Branch>', '<Branch>0002</Branch>'));
    expect([tampered.status, tampered.text]).toEqual([400, expect.stringContaining('/error/RequestSignatureInvalid</type>')]);

    const notXml = await post('/entries/', '<CreateEntryRequest><Entry>');
    expect([notXml.status, notXml.text]).toEqual([400, expect.stringContaining('/error/BadRequest</type>')]);
    const entity = await post('/entries/', '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaa">]><CreateEntryRequest/>');
    expect([entity.status, entity.text]).toEqual([400, expect.stringContaining('/error/BadRequest</type>')]);
    const huge = await post('/entries/', `<CreateEntryRequest>${'x'.repeat(70_000)}</CreateEntryRequest>`).catch((e: Error) => ({
      status: 0,
      text: e.message,
    }));
    expect(huge.status === 400 || huge.status === 0).toBe(true);
    expect(dict.server.entries.has(cpf)).toBe(false);
  });

  it('refuses a client without the trusted certificate at the TLS handshake', async () => {
    const agent = new Agent({ connect: { ca: readFileSync(dict.pki.caFile) } });
    try {
      await expect(request(`${dict.server.url}/entries/${newCpf()}`, { dispatcher: agent })).rejects.toThrow();
    } finally {
      await agent.close();
    }
  });

  it('does not believe an answer signed by anyone but DICT: unavailable, never done', async () => {
    // The adapter told to trust pix-keys' own signing certificate for DICT's answers: the test server's answers fail it.
    const distrusting = new BacenDictDirectory(
      specConfig({ ...dict.env, DICT_RESPONSE_SIGNING_CERT_FILE: dict.pki.signingCertFile }),
      loadDictCredentials(specConfig({ ...dict.env, DICT_RESPONSE_SIGNING_CERT_FILE: dict.pki.signingCertFile })),
    );
    try {
      const answer = await distrusting.createEntry({ entry: entryFor(newCpf()), requestId: newUuid(), reason: 'USER_REQUESTED' });
      expect(answer).toMatchObject({
        outcome: 'unavailable',
        reason: expect.stringMatching(/^HTTP 201, answer not trusted: .*signature invalid/),
      });
    } finally {
      await distrusting.onModuleDestroy();
    }
  });

  it('times a call out: no answer within DICT_TIMEOUT_MS is unavailable', async () => {
    const impatient = new BacenDictDirectory(specConfig({ ...dict.env, DICT_TIMEOUT_MS: '200' }), loadDictCredentials(config));
    dict.server.injectFault({ operationId: 'getEntryByCid', kind: 'late', delayMs: 1_000, times: 1 });
    try {
      expect(await impatient.getEntryByCid('0'.repeat(64))).toMatchObject({
        outcome: 'unavailable',
        reason: expect.stringMatching(/Timeout|abort/i),
      });
    } finally {
      await impatient.onModuleDestroy();
      await new Promise((r) => setTimeout(r, 1_000));
    }
  });
});

describe("BacenDictDirectory's claims as the donor, another participant playing the claimer in the test server", () => {
  const CLAIMER = '00000001';
  /** Our registered CPF key, and another participant's portability claim of it. */
  async function claimedKey() {
    const cpf = newCpf();
    expect(await adapter.createEntry({ entry: entryFor(cpf), requestId: newUuid(), reason: 'USER_REQUESTED' })).toMatchObject({
      outcome: 'done',
    });
    return { cpf, claim: dict.server.as(CLAIMER).createClaim(portabilityOf(cpf, CLAIMER)) };
  }

  it('lists the claims it is donor of, acknowledges one (idempotently), confirms it: DICT removes the entry', async () => {
    const since = new Date(Date.now() - 1000);
    const { cpf, claim } = await claimedKey();
    const listed = await adapter.listClaims({ isDonor: true, status: ['OPEN'], modifiedAfter: since, limit: 200 });
    expect(listed).toMatchObject({ outcome: 'done', value: { hasMore: false } });
    const mine = listed.outcome === 'done' ? listed.value.claims.filter((c) => c.key === cpf) : [];
    expect(mine).toEqual([
      expect.objectContaining({
        id: claim.id,
        type: 'PORTABILITY',
        status: 'OPEN',
        donorParticipant: STACK_OPERATOR_ISPB,
        claimerParticipant: CLAIMER,
      }),
    ]);
    expect(mine[0].resolutionPeriodEnd.getTime() - new Date(claim.lastModified).getTime()).toBe(RESOLUTION_PERIOD_MS);
    // Locked while the claim is open (the document's EntryLockedByClaim).
    expect(await adapter.deleteEntry(cpf, 'USER_REQUESTED')).toMatchObject({ outcome: 'refused', problem: { type: 'EntryLockedByClaim' } });
    expect(await adapter.acknowledgeClaim(claim.id)).toMatchObject({ outcome: 'done', value: { status: 'WAITING_RESOLUTION' } });
    expect(await adapter.acknowledgeClaim(claim.id)).toMatchObject({ outcome: 'done', value: { status: 'WAITING_RESOLUTION' } });
    // A portability is confirmed by the donor with USER_REQUESTED or ACCOUNT_CLOSURE, never FRAUD.
    expect(await adapter.confirmClaim(claim.id, 'FRAUD')).toMatchObject({ outcome: 'refused', problem: { type: 'InvalidReason' } });
    expect(await adapter.confirmClaim(claim.id, 'USER_REQUESTED')).toMatchObject({
      outcome: 'done',
      value: { status: 'CONFIRMED', confirmReason: 'USER_REQUESTED' },
    });
    expect(dict.server.entries.has(cpf)).toBe(false);
    expect(dict.server.as(CLAIMER).completeClaim(claim.id, newUuid())).toMatchObject({ status: 'COMPLETED' });
    expect(dict.server.entries.get(cpf)?.participant).toBe(CLAIMER);
    const calls = dict.server.requests.filter((r) => r.key === cpf && /Claim/.test(r.operationId ?? ''));
    expect(calls.map((r) => [r.operationId, r.status, r.signed])).toEqual([
      ['acknowledgeClaim', 200, true],
      ['acknowledgeClaim', 200, true],
      ['confirmClaim', 400, true],
      ['confirmClaim', 200, true],
    ]);
  });

  it('cancels as the donor only with a reason the document gives it; DEFAULT_OPERATION only once the resolution period is over', async () => {
    const { cpf, claim } = await claimedKey();
    // Not yet received: nothing to cancel.
    expect(await adapter.cancelClaim(claim.id, 'USER_REQUESTED')).toMatchObject({
      outcome: 'refused',
      problem: { type: 'ClaimOperationInvalid' },
    });
    await adapter.acknowledgeClaim(claim.id);
    expect(await adapter.cancelClaim(claim.id, 'ACCOUNT_CLOSURE')).toMatchObject({
      outcome: 'refused',
      problem: { type: 'InvalidReason' },
    });
    expect(await adapter.cancelClaim(claim.id, 'DEFAULT_OPERATION')).toMatchObject({
      outcome: 'refused',
      problem: { type: 'ClaimResolutionPeriodNotEnded' },
    });
    dict.server.advanceClock(RESOLUTION_PERIOD_MS);
    try {
      expect(await adapter.cancelClaim(claim.id, 'DEFAULT_OPERATION')).toMatchObject({
        outcome: 'done',
        value: { status: 'CANCELLED', cancelReason: 'DEFAULT_OPERATION', cancelledBy: 'DONOR' },
      });
    } finally {
      dict.server.advanceClock(-RESOLUTION_PERIOD_MS);
    }
    // The key stays ours, and is no longer locked.
    expect(dict.server.entries.get(cpf)?.participant).toBe(STACK_OPERATOR_ISPB);
    expect(await adapter.deleteEntry(cpf, 'USER_REQUESTED')).toEqual({ outcome: 'done', value: { key: cpf } });
  });

  it('refuses what the document refuses the claimer: an EVP, a CPF by ownership, a second open claim of a key', async () => {
    const { cpf } = await claimedKey();
    const other = dict.server.as(CLAIMER);
    expect(() => other.createClaim(portabilityOf(cpf, CLAIMER))).toThrow(/ClaimAlreadyExistsForKey/);
    expect(() => other.createClaim({ ...portabilityOf(newCpf(), CLAIMER), type: 'OWNERSHIP' })).toThrow(/ClaimInvalid/);
    expect(() => other.createClaim({ ...portabilityOf(newCpf(), CLAIMER), keyType: 'EVP', key: newUuid() })).toThrow(/ClaimInvalid/);
    expect(() => other.createClaim(portabilityOf(newCpf(), CLAIMER))).toThrow(/ClaimKeyNotFound/);
  });
});

describe("BacenDictDirectory's claims as the claimer, another participant playing the donor in the test server", () => {
  it('claims a CPF held elsewhere (portability), and completes it once the donor confirmed: the entry is ours, with our RequestId', async () => {
    const donor = dict.server.as(HELD_ELSEWHERE_ISPB);
    const cpf = HELD_ELSEWHERE_CPF;
    const { account, owner } = entryFor(cpf, 'Titular em Outra Instituicao');
    const created = await adapter.createClaim({ type: 'PORTABILITY', key: cpf, keyType: 'CPF', claimerAccount: account, claimer: owner });
    expect(created).toMatchObject({
      outcome: 'done',
      value: { status: 'OPEN', donorParticipant: HELD_ELSEWHERE_ISPB, claimerParticipant: STACK_OPERATOR_ISPB },
    });
    const id = created.outcome === 'done' ? created.value.id : '';
    // A second claim of the key while this one is open is refused (createClaim has no RequestId).
    expect(
      await adapter.createClaim({ type: 'PORTABILITY', key: cpf, keyType: 'CPF', claimerAccount: account, claimer: owner }),
    ).toMatchObject({ outcome: 'refused', problem: { type: 'ClaimAlreadyExistsForKey' } });
    const requestId = newUuid();
    // Not before the donor confirmed.
    expect(await adapter.completeClaim(id, requestId)).toMatchObject({ outcome: 'refused', problem: { type: 'ClaimOperationInvalid' } });
    donor.acknowledgeClaim(id);
    donor.confirmClaim(id, 'USER_REQUESTED');
    expect(await adapter.completeClaim(id, requestId)).toMatchObject({ outcome: 'done', value: { status: 'COMPLETED' } });
    expect(await adapter.completeClaim(id, requestId)).toMatchObject({ outcome: 'done', value: { status: 'COMPLETED' } });
    expect(dict.server.entries.get(cpf)).toMatchObject({ participant: STACK_OPERATOR_ISPB, requestId });
    expect(await adapter.getEntryByCid(entryCid(entryFor(cpf, 'Titular em Outra Instituicao'), requestId))).toMatchObject({
      outcome: 'done',
    });
    // Given back, so the stack's held-elsewhere CPF is held elsewhere again for the other specs of this server.
    expect(await adapter.deleteEntry(cpf, 'USER_REQUESTED')).toMatchObject({ outcome: 'done' });
    dict.server.holdElsewhere(cpf, HELD_ELSEWHERE_ISPB);
  });
});

describe("the signature profile, against the Central Bank's own signer (vendor/bacen-pix-dict-quickstart, run in Java)", () => {
  it('reads an answer XMLSigner signed (two references, the certificate named by issuer and serial), and nothing else it did not sign', () => {
    const example = readFileSync(join(DICT_DOCUMENT_DIR, 'examples/reconciliation/GetEntryByCidResponse.xml'), 'utf8').replace(
      /\s*<Signature><\/Signature>/,
      '',
    );
    const signed = signTheQuickstartWay(example, dict.pki.dictSigningKeyFile, dict.pki.dictSigningCertFile);
    expect([...signed.matchAll(/<ds:Reference URI="([^"]*)">/g)].map((m) => m[1])).toEqual(['#key-info-id', '']);
    const dictCert = readFileSync(dict.pki.dictSigningCertFile, 'utf8');
    expect(childText(child(verifiedDocument(signed, dictCert), 'Entry'), 'Key')).toBe('11122233300');
    expect(() => verifiedDocument(signed.replace('<Key>11122233300</Key>', '<Key>11122233301</Key>'), dictCert)).toThrow(
      /signature invalid/,
    );
  });

  it('signs requests that the Java check of a DICT accepts, and that it refuses once changed', () => {
    const signed = signXml(createEntryXml({ entry: entryFor(newCpf()), requestId: newUuid(), reason: 'USER_REQUESTED' }), signer());
    expect(verifyTheQuickstartWay(signed, dict.pki.signingCertFile)).toEqual({ valid: true });
    expect(verifyTheQuickstartWay(signed.replace('<Branch>0001</Branch>', '<Branch>0002</Branch>'), dict.pki.signingCertFile)).toEqual({
      valid: false,
      reason: expect.stringContaining('reference URI="" digest mismatch'),
    });
  });
});

describe('loadDictCredentials', () => {
  it('stops the start-up on a missing file, a key that is not its certificate’s, or something that is not a certificate', () => {
    const wrong = specConfig({
      ...dict.env,
      DICT_CLIENT_KEY_FILE: dict.pki.signingKeyFile,
      DICT_CA_FILE: dict.pki.clientKeyFile,
      DICT_RESPONSE_SIGNING_CERT_FILE: join(dict.pki.dir, 'missing.pem'),
    });
    expect(() => loadDictCredentials(wrong)).toThrow(DictCredentialsError);
    try {
      loadDictCredentials(wrong);
    } catch (error) {
      const message = (error as Error).message;
      expect(message).toContain('DICT_CLIENT_KEY_FILE: the key is not the one of DICT_CLIENT_CERT_FILE');
      expect(message).toContain('DICT_CA_FILE: no PEM certificate in it');
      expect(message).toMatch(/DICT_RESPONSE_SIGNING_CERT_FILE: cannot read .*missing\.pem \(ENOENT\)/);
      // Never the content of a key.
      expect(message).not.toContain('PRIVATE KEY');
    }
  });

  it('takes the stack’s development certificates', () => {
    expect(Object.keys(loadDictCredentials(config)).sort()).toEqual([
      'ca',
      'clientCert',
      'clientKey',
      'responseCert',
      'signingCert',
      'signingKey',
    ]);
  });
});
