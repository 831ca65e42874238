/**
 * The DICT test server: the Central Bank's DICT API (vendor/bacen-pix-dict-api, version 1.8.0) for one
 * participant, in memory, so that `npm start`, `npm test` and the chaos run register Pix keys through the
 * same adapter, the same signed XML and the same mutual TLS as production. It is a stand-in for DICT, run
 * by the stack, never by a deployment (docs/operations/pix-and-dict.md, "The DICT test server").
 *
 * Every request is checked as DICT would before it is answered:
 *   - mutual TLS: a client certificate issued by the configured CA, or no connection at all;
 *   - the route and the method, as the document's paths say (createEntry, deleteEntry, getEntry, getEntryByCid);
 *   - the body: well-formed XML, then validated against the operation's schema in the published document
 *     itself (DictDocument: Ajv on the document's own schemas), refusals answered with their violations;
 *   - the XML-DSig signature of every request that changes the directory (createEntry, deleteEntry),
 *     verified with the participant's signing certificate (never the one the request carries);
 *   - the rules of the document's descriptions: the participant of the account is the caller's, a CPF key is
 *     its owner's CPF, a RequestId is never reused for another entry, one entry per key.
 * getEntry refuses an entry of the requesting participant (EntryCannotBeQueriedForBookTransfer: a payment between
 * two of its own users never asks DICT); the participant reads its own by CID (getEntryByCid).
 * Answers are the document's: 201 CreateEntryResponse, 200 DeleteEntryResponse, GetEntryResponse or
 * GetEntryByCidResponse, built as
 * its examples are and signed, or an RFC 7807 problem (`application/problem+xml`) of the document's error
 * types. Each answer is validated against the document's response schema too (a mismatch is a bug here: 500).
 *
 * Keys held at other institutions are preloaded (`heldElsewhere`; `npm start` and `npm test` hold
 * 00000000191 at ISPB 00000000): registering one is refused with EntryKeyInCustodyOfDifferentParticipant.
 * The deletion of a `slowDeletes` key (00000000272 on the stacks) is answered after `slowDeleteMs` (2 s).
 * `injectFault` makes the next calls answer 503, 429 (with `Retry-After`) or answer late, for the specs of the
 * client's retries.
 */
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, Server } from 'node:https';
import { IncomingMessage, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { Document, DOMParser, Element } from '@xmldom/xmldom';
import { DictDocument, DictOperation, Violation } from './dict-document';
import { DictPki } from './dict-pki';
import { escape, lines, Problem } from './dict-problem';
import { ClaimFilter, ClaimInput, ClaimStatus, ClaimType, claimXml, TestClaim, TestClaims } from './test-claims';
import { QuickstartSignerProcess } from './quickstart-signer';
import {
  InfractionReportInput,
  infractionReportXml,
  MedFilter,
  RefundInput,
  refundXml,
  TestInfractionReport,
  TestMed,
  TestRefund,
} from './test-med';

const XMLDSIG_NS = 'http://www.w3.org/2000/09/xmldsig#';
const RSA_SHA256 = 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256';
const ENVELOPED = 'http://www.w3.org/2000/09/xmldsig#enveloped-signature';
const ERROR_BASE = 'https://dict.pi.rsfn.net.br/api/v1/error/';
/** The API's base path, as the document's servers give it (`https://dict.pi.rsfn.net.br:16422/api/v1/`). */
export const DICT_BASE_PATH = '/api/v1';
/**
 * The most keys an account of a natural person may have: the document names the refusal (EntryLimitExceeded, "Número de
 * vínculos associados a conta transacional excedeu o limite máximo"), the Pix rules the number (5; 20 for a company).
 */
const ENTRIES_PER_NATURAL_PERSON_ACCOUNT = 5;
/** The operations the test server answers (the document's others answer NotFound). */
const ANSWERED = [
  'createEntry',
  'deleteEntry',
  'getEntry',
  'getEntryByCid',
  'createClaim',
  'listClaims',
  'getClaim',
  'acknowledgeClaim',
  'confirmClaim',
  'cancelClaim',
  'completeClaim',
  'listInfractionReport',
  'getInfractionReport',
  'acknowledgeInfractionReport',
  'closeInfractionReport',
  'listRefund',
  'getRefund',
  'closeRefund',
];
/** Bodies larger than this are refused unread (DICT's requests are a few KB). */
const MAX_BODY_BYTES = 64 * 1024;

export interface DictTestServerOptions {
  /** 0: any free port. */
  port: number;
  host?: string;
  pki: DictPki;
  /** The ISPB of the participant whose client and signing certificates the server trusts (the operator's). */
  participant: string;
  /** Keys already held by other participants, refused to this one. */
  heldElsewhere?: HeldKey[];
  /** Keys whose deletion is answered only after `slowDeleteMs` (a deletion that stays in flight a while, for the e2e suites). */
  slowDeletes?: string[];
  slowDeleteMs?: number;
  /** One line per request; none by default. */
  log?: (line: string) => void;
  document?: DictDocument;
}

export interface HeldKey {
  key: string;
  participant: string;
}

/** One entry as the test server keeps it. */
export interface TestEntry {
  key: string;
  keyType: string;
  participant: string;
  branch: string;
  accountNumber: string;
  accountType: string;
  openingDate: string;
  ownerType: string;
  taxIdNumber: string;
  name: string;
  tradeName: string;
  creationDate: string;
  keyOwnershipDate: string;
  requestId: string;
  cid: string;
}

/** What the server did with one request, for specs to look at. */
export interface RecordedRequest {
  operationId: string | undefined;
  status: number;
  problem?: string;
  signed: boolean;
  /** The key of an entry or claim; the id of an infraction report or refund request. */
  key?: string;
  requestId?: string;
  violations?: Violation[];
}

/** What another participant does with claims (test-claims.ts, the same rules as over HTTP). */
export interface ParticipantClaims {
  createClaim(input: ClaimInput): TestClaim;
  acknowledgeClaim(id: string): TestClaim;
  confirmClaim(id: string, reason: string): TestClaim;
  cancelClaim(id: string, reason: string): TestClaim;
  completeClaim(id: string, requestId: string): TestClaim;
}

/** What another participant (the debited one) does with MED cases (test-med.ts, the same rules as over HTTP). */
export interface ParticipantMed {
  createInfractionReport(input: InfractionReportInput): TestInfractionReport;
  cancelInfractionReport(id: string): TestInfractionReport;
  createRefund(input: RefundInput): TestRefund;
  cancelRefund(id: string): TestRefund;
}

export interface Fault {
  /** Only calls of this operation (default: any). */
  operationId?: string;
  /**
   * `unavailable`: a 503 ServiceUnavailable problem; `rate_limited`: a 429 RateLimited problem with `Retry-After:
   * retryAfterSeconds`; `unsigned_refusal`: a 400 problem without a signature (a DICT whose signing the client
   * does not recognise); `late`: the call is carried out, its answer sent after `delayMs`.
   */
  kind: 'unavailable' | 'rate_limited' | 'unsigned_refusal' | 'late';
  delayMs?: number;
  retryAfterSeconds?: number;
  /** How many calls it applies to. */
  times: number;
}

export interface DictTestServer {
  /** The API's base URL, e.g. `https://127.0.0.1:18443/api/v1`: pix-keys' DICT_URL. */
  url: string;
  port: number;
  entries: Map<string, TestEntry>;
  /** Every claim, by id (test-claims.ts). */
  claims: Map<string, TestClaim>;
  /** Every infraction report and refund request, by id (test-med.ts). */
  infractionReports: Map<string, TestInfractionReport>;
  refunds: Map<string, TestRefund>;
  /** Another participant's side of claims and MED cases, for a spec to play it (it has no certificate here: in process). */
  as(participant: string): ParticipantClaims & ParticipantMed;
  /** A CPF key held by another participant from now on (as `heldElsewhere` at the start). */
  holdElsewhere(key: string, participant: string): void;
  /** Moves the server's clock forward (a claim's resolution or completion period passing). */
  advanceClock(ms: number): void;
  requests: RecordedRequest[];
  injectFault(fault: Fault): void;
  close(): Promise<void>;
}

function strictParse(xml: string): Document {
  const refuse = (detail: string) => new Problem(400, 'BadRequest', 'Bad Request', `Could not parse request body: ${detail}`.slice(0, 300));
  if (/<!DOCTYPE/i.test(xml)) throw refuse('a document type declaration is not allowed');
  let doc: Document;
  try {
    doc = new DOMParser({
      onError: (level, message) => {
        throw new Error(`${level}: ${message}`);
      },
    }).parseFromString(xml, 'application/xml');
  } catch (error) {
    throw refuse((error as Error).message);
  }
  if (!doc.documentElement) throw refuse('no root element');
  return doc;
}

/** The document's root element (strictParse made sure there is one). */
const rootOf = (doc: Document): Element => {
  if (!doc.documentElement) throw new Problem(400, 'BadRequest', 'Bad Request', 'Could not parse request body: no root element');
  return doc.documentElement;
};

/** The value at a dotted path of the object a body was read into. */
function at(value: unknown, path: string): string {
  let v: unknown = value;
  for (const part of path.split('.')) v = typeof v === 'object' && v !== null ? (v as Record<string, unknown>)[part] : undefined;
  return typeof v === 'string' ? v : '';
}

/** DICT's CID (the document's "Cálculo de CID"): HMAC-SHA256 keyed by the RequestId's 16 bytes over the entry's attributes. */
export function cidOf(e: Omit<TestEntry, 'cid' | 'creationDate' | 'keyOwnershipDate' | 'openingDate' | 'ownerType'>): string {
  const attributes = [e.keyType, e.key, e.taxIdNumber, e.name, e.tradeName, e.participant, e.branch, e.accountNumber, e.accountType].join(
    '&',
  );
  return createHmac('sha256', Buffer.from(e.requestId.replace(/-/g, ''), 'hex'))
    .update(attributes, 'utf8')
    .digest('hex');
}

export async function startDictTestServer(options: DictTestServerOptions): Promise<DictTestServer> {
  const document = options.document ?? new DictDocument();
  const read = (file: string) => readFileSync(file, 'utf8');
  // The Central Bank's own signer signs every answer and checks every request (quickstart-signer.ts).
  const signer = new QuickstartSignerProcess(options.pki.dictSigningKeyFile, options.pki.dictSigningCertFile, options.pki.signingCertFile);
  const sign = (xml: string) => signer.sign(xml);
  const entries = new Map<string, TestEntry>();
  const byRequestId = new Map<string, { cid: string; key: string; answer: string }>();
  const requests: RecordedRequest[] = [];
  const faults: Fault[] = [];
  const log = options.log ?? (() => undefined);
  // The server's clock: a spec moves it past a claim's periods (advanceClock).
  let clockOffsetMs = 0;
  const clock = () => new Date(Date.now() + clockOffsetMs);
  const now = () => clock().toISOString();
  const claims = new TestClaims(
    {
      holderOf: (key) => entries.get(key),
      remove: (key) => {
        entries.delete(key);
        for (const [id, r] of byRequestId) if (r.key === key) byRequestId.delete(id);
      },
      create: (claim, requestId) => {
        const { claimerAccount: a, claimer } = claim;
        const at = now();
        const entry = {
          key: claim.key,
          keyType: claim.keyType,
          participant: a.participant,
          branch: a.branch,
          accountNumber: a.accountNumber,
          accountType: a.accountType,
          openingDate: a.openingDate,
          ownerType: claimer.type,
          taxIdNumber: claimer.taxIdNumber,
          name: claimer.name,
          tradeName: '',
          creationDate: at,
          keyOwnershipDate: at,
          requestId,
        };
        entries.set(claim.key, { ...entry, cid: cidOf(entry) });
        return { creationDate: at, keyOwnershipDate: at };
      },
    },
    clock,
  );
  const med = new TestMed(clock);

  const holdElsewhere = (held: HeldKey) => {
    const creation = '2024-01-02T03:00:00.000Z';
    const entry = {
      key: held.key,
      keyType: 'CPF',
      participant: held.participant,
      branch: '0001',
      accountNumber: '1234567',
      accountType: 'CACC',
      openingDate: creation,
      ownerType: 'NATURAL_PERSON',
      taxIdNumber: held.key,
      name: 'Titular em Outra Instituicao',
      tradeName: '',
      creationDate: creation,
      keyOwnershipDate: creation,
      requestId: '00000000-0000-4000-8000-000000000000',
    };
    entries.set(held.key, { ...entry, cid: cidOf(entry) });
  };
  for (const held of options.heldElsewhere ?? []) holdElsewhere(held);

  /**
   * Checks the request's enveloped signature as a Java DICT would (the quickstart's javax.xml.crypto check, with the
   * participant's signing certificate, never one the request names): one `ds:Signature`, a child of the root, whose
   * references include the whole document (URI="", enveloped), so that what is read is what was signed.
   */
  const checkSignature = async (xml: string, doc: Document) => {
    const invalid = (detail: string) => new Problem(400, 'RequestSignatureInvalid', 'Request signature is invalid', detail);
    const signatures = Array.from(doc.getElementsByTagNameNS(XMLDSIG_NS, 'Signature'));
    if (signatures.length !== 1) throw invalid(`expected one ds:Signature, found ${signatures.length}`);
    if (signatures[0].parentNode !== doc.documentElement) throw invalid('the signature must be enveloped by the root element');
    const references = Array.from(signatures[0].getElementsByTagNameNS(XMLDSIG_NS, 'Reference'));
    const whole = references.some(
      (r) =>
        r.getAttribute('URI') === '' &&
        Array.from(r.getElementsByTagNameNS(XMLDSIG_NS, 'Transform')).some((t) => t.getAttribute('Algorithm') === ENVELOPED),
    );
    if (!whole) throw invalid('the signature must reference the whole document (URI="", enveloped-signature transform)');
    const method = signatures[0].getElementsByTagNameNS(XMLDSIG_NS, 'SignatureMethod')[0]?.getAttribute('Algorithm');
    if (method !== RSA_SHA256) throw invalid(`signature algorithm must be ${RSA_SHA256}`);
    const verdict = await signer.verify(xml);
    if (!verdict.valid)
      throw invalid(`the signature does not verify with the participant certificate: ${verdict.reason ?? ''}`.slice(0, 300));
  };

  const entryXml = (e: TestEntry, indent: string, extended: boolean) => `${indent}<Entry>
${lines(`${indent}    `, [
  ['Key', e.key],
  ['KeyType', e.keyType],
])}
${indent}    <Account>
${lines(`${indent}        `, [
  ['Participant', e.participant],
  ['Branch', e.branch],
  ['AccountNumber', e.accountNumber],
  ['AccountType', e.accountType],
  ['OpeningDate', e.openingDate],
])}
${indent}    </Account>
${indent}    <Owner>
${lines(`${indent}        `, [
  ['Type', e.ownerType],
  ['TaxIdNumber', e.taxIdNumber],
  ['Name', e.name],
  ['TradeName', e.tradeName],
])}
${indent}    </Owner>
${
  extended
    ? `${lines(`${indent}    `, [
        ['CreationDate', e.creationDate],
        ['KeyOwnershipDate', e.keyOwnershipDate],
      ])}\n`
    : ''
}${indent}</Entry>`;

  const correlationId = () => randomBytes(16).toString('hex');
  const answer = (root: string, body: string) =>
    `<?xml version="1.0" encoding="UTF-8"?>\n<${root}>\n    <ResponseTime>${now()}</ResponseTime>\n    <CorrelationId>${correlationId()}</CorrelationId>\n${body}\n</${root}>`;

  const problemXml = (p: Problem) =>
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<problem xmlns="urn:ietf:rfc:7807">
    <type>${ERROR_BASE}${p.type}</type>
    <title>${escape(p.title)}</title>
    <status>${p.status}</status>
${p.detail ? `    <detail>${escape(p.detail)}</detail>\n` : ''}    <correlationId>${correlationId()}</correlationId>${
      p.violations.length > 0
        ? `\n    <violations>\n${p.violations
            .map(
              (v) =>
                `        <violation>\n${lines('            ', [
                  ['reason', v.reason],
                  ['value', v.value],
                  ['property', v.property],
                ])}\n        </violation>`,
            )
            .join('\n')}\n    </violations>`
        : ''
    }
</problem>`;

  /** An answer of `operation` validated against the document's schema for its status before it is sent. */
  const checkedAnswer = (operation: DictOperation | undefined, status: number, xml: string): string => {
    const location = operation?.responseSchemas[String(status)];
    if (location) {
      const result = document.validateXml(location, rootOf(strictParse(xml)));
      if (!result.ok)
        throw new Error(
          `the test server's own ${operation?.operationId} ${status} answer breaks the document: ${JSON.stringify(result.violations)}`,
        );
    }
    return xml;
  };

  const createEntry = (body: unknown, record: RecordedRequest): { status: number; xml: string } => {
    const requestId = at(body, 'RequestId');
    const entry: Omit<TestEntry, 'cid'> = {
      key: at(body, 'Entry.Key'),
      keyType: at(body, 'Entry.KeyType'),
      participant: at(body, 'Entry.Account.Participant'),
      branch: at(body, 'Entry.Account.Branch'),
      accountNumber: at(body, 'Entry.Account.AccountNumber'),
      accountType: at(body, 'Entry.Account.AccountType'),
      openingDate: new Date(at(body, 'Entry.Account.OpeningDate')).toISOString(),
      ownerType: at(body, 'Entry.Owner.Type'),
      taxIdNumber: at(body, 'Entry.Owner.TaxIdNumber'),
      name: at(body, 'Entry.Owner.Name'),
      tradeName: at(body, 'Entry.Owner.TradeName'),
      creationDate: now(),
      keyOwnershipDate: now(),
      requestId,
    };
    record.key = entry.key;
    record.requestId = requestId;
    const reason = at(body, 'Reason');
    if (!['USER_REQUESTED', 'RECONCILIATION'].includes(reason))
      throw new Problem(400, 'InvalidReason', 'Invalid reason', `Reason ${reason} is not valid to create an entry`);
    if (entry.participant !== options.participant)
      throw new Problem(403, 'Forbidden', 'Forbidden', 'Participant is not allowed to access this resource');
    if (entry.keyType !== 'CPF' && entry.keyType !== 'EVP') {
      throw new Problem(400, 'EntryInvalid', 'Entry is invalid', 'Entry has invalid fields', [
        { reason: 'the DICT test server registers CPF and EVP keys only', value: entry.keyType, property: 'entry.keyType' },
      ]);
    }
    // The document ("Chave"): an EVP "é gerado pelo DICT"; a participant never chooses one.
    if (entry.keyType === 'EVP' && entry.key !== '') {
      throw new Problem(400, 'EntryInvalid', 'Entry is invalid', 'Entry has invalid fields', [
        { reason: 'An EVP key is generated by DICT: the request must not carry Key', value: entry.key, property: 'entry.key' },
      ]);
    }
    if (entry.keyType === 'CPF' && !/^[0-9]{11}$/.test(entry.key)) {
      throw new Problem(400, 'EntryInvalid', 'Entry is invalid', 'Entry has invalid fields', [
        { reason: "Value does not match regex '^[0-9]{11}$'", value: entry.key, property: 'entry.key' },
      ]);
    }
    if (entry.ownerType !== 'NATURAL_PERSON' || (entry.keyType === 'CPF' && entry.taxIdNumber !== entry.key)) {
      throw new Problem(
        400,
        'EntryTaxIdNumberByDifferentOwner',
        'Entry tax id number belongs to a different owner',
        "A CPF key must be its owner's CPF",
      );
    }
    // An EVP request has no key yet: its CID is taken over the rest, so a retry is known as the same request.
    const cid = cidOf(entry);
    const seen = byRequestId.get(requestId);
    if (seen) {
      // The document's idempotency: a repeated request (the same CID) gets the first answer again (an EVP its same key).
      if (seen.cid === cid) return { status: 201, xml: seen.answer };
      throw new Problem(400, 'RequestIdAlreadyUsed', 'Request id already used', `RequestId ${requestId} was used for another entry`);
    }
    if (entry.keyType === 'EVP') {
      // The document's limit of keys per account: 5 for a natural person (EntryLimitExceeded).
      const onAccount = [...entries.values()].filter(
        (e) => e.participant === entry.participant && e.branch === entry.branch && e.accountNumber === entry.accountNumber,
      );
      if (onAccount.length >= ENTRIES_PER_NATURAL_PERSON_ACCOUNT)
        throw new Problem(400, 'EntryLimitExceeded', 'Entry limit exceeded', 'The account has the most keys a natural person may have');
      const generated = { ...entry, key: randomUUID() };
      const stored: TestEntry = { ...generated, cid: cidOf(generated) };
      entries.set(stored.key, stored);
      const xml = answer('CreateEntryResponse', entryXml(stored, '    ', true));
      byRequestId.set(requestId, { cid, key: stored.key, answer: xml });
      return { status: 201, xml };
    }
    const existing = entries.get(entry.key);
    if (existing) {
      if (existing.participant !== options.participant) {
        if (existing.taxIdNumber === entry.taxIdNumber) {
          throw new Problem(
            400,
            'EntryKeyInCustodyOfDifferentParticipant',
            'Entry key is in custody of a different participant',
            'The key is held by the same owner at another participant: a portability claim is needed',
          );
        }
        throw new Problem(
          400,
          'EntryKeyOwnedByDifferentPerson',
          'Entry key is owned by a different person',
          'The key is held by another person: an ownership claim is needed',
        );
      }
      throw new Problem(
        400,
        'EntryAlreadyExists',
        'Entry already exists',
        'An entry for this key already exists for this participant and owner',
      );
    }
    const stored: TestEntry = { ...entry, cid };
    entries.set(entry.key, stored);
    const xml = answer('CreateEntryResponse', entryXml(stored, '    ', true));
    byRequestId.set(requestId, { cid, key: entry.key, answer: xml });
    return { status: 201, xml };
  };

  const deleteEntry = (body: unknown, pathKey: string, record: RecordedRequest): { status: number; xml: string } => {
    const key = at(body, 'Key');
    record.key = key;
    if (key !== pathKey) throw new Problem(400, 'BadRequest', 'Bad Request', 'The body Key is not the key of the path');
    const reason = at(body, 'Reason');
    if (!['USER_REQUESTED', 'ACCOUNT_CLOSURE', 'RECONCILIATION', 'FRAUD'].includes(reason)) {
      throw new Problem(400, 'InvalidReason', 'Invalid reason', `Reason ${reason} is not valid to delete an entry`);
    }
    if (at(body, 'Participant') !== options.participant)
      throw new Problem(403, 'Forbidden', 'Forbidden', 'Participant is not allowed to access this resource');
    const existing = entries.get(key);
    if (!existing) throw new Problem(404, 'NotFound', 'Not found', 'Entry associated with given key does not exist');
    if (existing.participant !== options.participant)
      throw new Problem(403, 'Forbidden', 'Forbidden', 'Participant is not allowed to access this resource');
    if (claims.openFor(key))
      throw new Problem(400, 'EntryLockedByClaim', 'Entry locked by claim', 'The key has a claim neither completed nor cancelled');
    entries.delete(key);
    for (const [id, r] of byRequestId) if (r.key === key) byRequestId.delete(id);
    return { status: 200, xml: answer('DeleteEntryResponse', lines('    ', [['Key', key]])) };
  };

  /** The request's headers checked against the operation's (required, and each one's schema). */
  const checkHeaders = (operation: DictOperation, req: IncomingMessage) => {
    for (const header of operation.headers) {
      const value = req.headers[header.name.toLowerCase()];
      if (value === undefined) {
        if (header.required) throw new Problem(400, 'BadRequest', 'Bad Request', `Header ${header.name} is required`);
        continue;
      }
      if (typeof value !== 'string' || !document.validateHeader(header.schema, value)) {
        throw new Problem(400, 'BadRequest', 'Bad Request', `Header ${header.name} is invalid`);
      }
    }
    if (req.headers['pi-requestingparticipant'] !== options.participant)
      throw new Problem(403, 'Forbidden', 'Forbidden', 'PI-RequestingParticipant is not the authenticated participant');
  };

  const getEntry = (
    operation: DictOperation,
    req: IncomingMessage,
    pathKey: string,
    record: RecordedRequest,
  ): { status: number; xml: string } => {
    record.key = pathKey;
    checkHeaders(operation, req);
    const existing = entries.get(pathKey);
    if (!existing) throw new Problem(404, 'NotFound', 'Not found', 'Entry associated with given key does not exist');
    if (existing.participant === options.participant) {
      throw new Problem(
        400,
        'EntryCannotBeQueriedForBookTransfer',
        'Entry cannot be queried for book transfer',
        'The entry is held by the requesting participant: a payment between its own users does not query DICT',
      );
    }
    const statistics = ['SETTLEMENTS', 'REPORTED_FRAUDS', 'CONFIRMED_FRAUDS', 'REJECTED']
      .flatMap((type) => ['KEY', 'OWNER', 'ACCOUNT'].map((by) => `            <Counter type="${type}" by="${by}" d3="0" d30="0" m6="0"/>`))
      .join('\n');
    const body = `${entryXml(existing, '    ', true)}\n    <Statistics>\n        <LastUpdated>${now()}</LastUpdated>\n        <Counters>\n${statistics}\n        </Counters>\n    </Statistics>`;
    return { status: 200, xml: answer('GetEntryResponse', body) };
  };

  /** getEntryByCid: the participant's own active entry of that CID. */
  const getEntryByCid = (
    operation: DictOperation,
    req: IncomingMessage,
    cid: string,
    record: RecordedRequest,
  ): { status: number; xml: string } => {
    checkHeaders(operation, req);
    const existing = [...entries.values()].find((e) => e.cid === cid && e.participant === options.participant);
    if (!existing) throw new Problem(404, 'NotFound', 'Not found', 'No active entry of this participant has this CID');
    record.key = existing.key;
    return {
      status: 200,
      xml: answer(
        'GetEntryByCidResponse',
        `    <Cid>${cid}</Cid>\n${entryXml(existing, '    ', true)}\n    <RequestId>${existing.requestId}</RequestId>`,
      ),
    };
  };

  /** The claim as the input of createClaim (its body's `Claim`). */
  const claimInput = (body: unknown): ClaimInput => ({
    type: at(body, 'Claim.Type') as ClaimType,
    key: at(body, 'Claim.Key'),
    keyType: at(body, 'Claim.KeyType'),
    claimerAccount: {
      participant: at(body, 'Claim.ClaimerAccount.Participant'),
      branch: at(body, 'Claim.ClaimerAccount.Branch'),
      accountNumber: at(body, 'Claim.ClaimerAccount.AccountNumber'),
      accountType: at(body, 'Claim.ClaimerAccount.AccountType'),
      openingDate: new Date(at(body, 'Claim.ClaimerAccount.OpeningDate')).toISOString(),
    },
    claimer: {
      type: at(body, 'Claim.Claimer.Type'),
      taxIdNumber: at(body, 'Claim.Claimer.TaxIdNumber'),
      name: at(body, 'Claim.Claimer.Name'),
    },
  });

  /** A claim operation with a signed body (acknowledge, confirm, cancel, complete): the body names the claim of the path and the caller. */
  const claimAction = (operationId: string, body: unknown, pathId: string, record: RecordedRequest): { status: number; xml: string } => {
    if (at(body, 'ClaimId') !== pathId)
      throw new Problem(400, 'BadRequest', 'Bad Request', 'The body ClaimId is not the claim of the path');
    if (at(body, 'Participant') !== options.participant)
      throw new Problem(403, 'Forbidden', 'Forbidden', 'Participant is not the authenticated participant');
    const caller = options.participant;
    record.key = claims.claims.get(pathId)?.key;
    let claim: TestClaim;
    let extra = '';
    if (operationId === 'acknowledgeClaim') claim = claims.acknowledge(caller, pathId);
    else if (operationId === 'confirmClaim') claim = claims.confirm(caller, pathId, at(body, 'Reason'));
    else if (operationId === 'cancelClaim') claim = claims.cancel(caller, pathId, at(body, 'Reason'));
    else {
      const completed = claims.complete(caller, pathId, at(body, 'RequestId'));
      claim = completed.claim;
      extra = `\n${lines('    ', [
        ['EntryCreationDate', completed.entry.creationDate],
        ['KeyOwnershipDate', completed.entry.keyOwnershipDate],
      ])}`;
    }
    record.key = claim.key;
    const root = `${operationId[0].toUpperCase()}${operationId.slice(1)}Response`;
    return { status: 200, xml: answer(root, `${claimXml(claim, '    ')}${extra}`) };
  };

  /**
   * A listing's query parameters as the document gives them to every listing (listClaims, listInfractionReport,
   * listRefund), checked: Participant required and the caller's, booleans and date-times well written, Status among
   * `known`, Limit at most 200 (20 unless given).
   */
  const listingQuery = (url: URL, known: readonly string[]) => {
    const q = url.searchParams;
    const bad = (detail: string) => new Problem(400, 'BadRequest', 'Bad Request', detail);
    const participant = q.get('Participant');
    if (!participant || !/^[0-9]{8}$/.test(participant)) throw bad('Participant is required: an ISPB');
    if (participant !== options.participant)
      throw new Problem(403, 'Forbidden', 'Forbidden', 'Participant is not the authenticated participant');
    const bool = (name: string) => {
      const v = q.get(name);
      if (v === null) return undefined;
      if (v !== 'true' && v !== 'false') throw bad(`${name} must be true or false`);
      return v === 'true';
    };
    const time = (name: string) => {
      const v = q.get(name);
      if (v === null) return undefined;
      const t = new Date(v);
      if (Number.isNaN(t.getTime())) throw bad(`${name} must be a date-time`);
      return t.toISOString();
    };
    const statuses = q.getAll('Status');
    if (statuses.some((st) => !known.includes(st))) throw bad(`Status must be one of ${known.join(', ')}`);
    const limit = q.get('Limit') === null ? 20 : Number(q.get('Limit'));
    if (!Number.isInteger(limit) || limit < 1 || limit > 200) throw bad('Limit must be an integer of 1 to 200');
    return { q, bad, bool, time, statuses, limit };
  };

  /** listClaims' query, checked as its parameters say. */
  const listClaims = (url: URL): { status: number; xml: string } => {
    const known: ClaimStatus[] = ['OPEN', 'WAITING_RESOLUTION', 'CONFIRMED', 'CANCELLED', 'COMPLETED'];
    const { q, bad, bool, time, statuses, limit } = listingQuery(url, known);
    const type = q.get('Type');
    if (type !== null && type !== 'OWNERSHIP' && type !== 'PORTABILITY') throw bad('Type must be OWNERSHIP or PORTABILITY');
    const filter: ClaimFilter = {
      isDonor: bool('IsDonor'),
      isClaimer: bool('IsClaimer'),
      ...(statuses.length ? { status: statuses as ClaimStatus[] } : {}),
      ...(type ? { type: type } : {}),
      modifiedAfter: time('ModifiedAfter'),
      modifiedBefore: time('ModifiedBefore'),
      limit,
    };
    const found = claims.list(options.participant, filter);
    return listAnswer(
      'ListClaimsResponse',
      'Claims',
      found.hasMore,
      found.claims.map((c) => claimXml(c, '        ')),
    );
  };

  /** A listing's answer, as the document's examples write it: HasMoreElements, then the items inside their wrapper. */
  const listAnswer = (root: string, wrapper: string, hasMore: boolean, items: string[]): { status: number; xml: string } => {
    const inside = items.length > 0 ? `\n${items.join('\n')}\n    ` : '';
    return { status: 200, xml: answer(root, `    <HasMoreElements>${hasMore}</HasMoreElements>\n    <${wrapper}>${inside}</${wrapper}>`) };
  };

  /** A MED operation with a signed body (acknowledge, close): the body names the case of the path and the caller. */
  const medAction = (
    opId: string,
    body: unknown,
    params: Record<string, string>,
    record: RecordedRequest,
  ): { status: number; xml: string } => {
    const report = opId.endsWith('InfractionReport');
    const [idName, pathId] = report ? ['InfractionReportId', params.InfractionReportId] : ['RefundId', params.RefundId];
    record.key = pathId;
    if (at(body, idName) !== pathId) throw new Problem(400, 'BadRequest', 'Bad Request', `The body ${idName} is not the one of the path`);
    if (at(body, 'Participant') !== options.participant)
      throw new Problem(403, 'Forbidden', 'Forbidden', 'Participant is not the authenticated participant');
    const caller = options.participant;
    const optional = (path: string) => at(body, path) || undefined;
    const root = `${opId[0].toUpperCase()}${opId.slice(1)}Response`;
    if (opId === 'acknowledgeInfractionReport')
      return { status: 200, xml: answer(root, infractionReportXml(med.acknowledgeInfractionReport(caller, pathId), '    ')) };
    if (opId === 'closeInfractionReport') {
      const close = { result: at(body, 'AnalysisResult'), details: optional('AnalysisDetails') };
      return { status: 200, xml: answer(root, infractionReportXml(med.closeInfractionReport(caller, pathId, close), '    ')) };
    }
    const close = {
      result: at(body, 'RefundAnalysisResult'),
      details: optional('RefundAnalysisDetails'),
      rejectionReason: optional('RefundRejectionReason'),
      refundTransactionId: optional('RefundTransactionId'),
    };
    return { status: 200, xml: answer(root, refundXml(med.closeRefund(caller, pathId, close), '    ')) };
  };

  /** listInfractionReport's and listRefund's query, checked as their parameters say (listRefund's ParticipantRole required). */
  const medFilter = (url: URL, refunds: boolean): MedFilter => {
    const known = refunds ? ['OPEN', 'CLOSED', 'CANCELLED'] : ['OPEN', 'ACKNOWLEDGED', 'CLOSED', 'CANCELLED'];
    const { q, bad, bool, time, statuses, limit } = listingQuery(url, known);
    const role = q.get('ParticipantRole');
    if (refunds && role !== 'REQUESTING' && role !== 'CONTESTED') throw bad('ParticipantRole is required: REQUESTING or CONTESTED');
    return {
      ...(refunds ? { role: role as 'REQUESTING' | 'CONTESTED' } : { isDebited: bool('IsDebited'), isCredited: bool('IsCredited') }),
      ...(statuses.length ? { status: statuses } : {}),
      includeDetails: bool('IncludeDetails') ?? false,
      modifiedAfter: time('ModifiedAfter'),
      modifiedBefore: time('ModifiedBefore'),
      limit,
    };
  };

  const listInfractionReports = (url: URL): { status: number; xml: string } => {
    const found = med.listInfractionReports(options.participant, medFilter(url, false));
    const items = found.reports.map((r) => infractionReportXml(r, '        '));
    return listAnswer('ListInfractionReportsResponse', 'InfractionReports', found.hasMore, items);
  };

  const listRefunds = (url: URL): { status: number; xml: string } => {
    const found = med.listRefunds(options.participant, medFilter(url, true));
    return listAnswer(
      'ListRefundsResponse',
      'Refunds',
      found.hasMore,
      found.refunds.map((r) => refundXml(r, '        ')),
    );
  };

  const readBody = (req: IncomingMessage): Promise<string> =>
    new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      let size = 0;
      req.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_BODY_BYTES) {
          reject(new Problem(400, 'BadRequest', 'Bad Request', `Request body larger than ${MAX_BODY_BYTES} bytes`));
          req.destroy();
          return;
        }
        chunks.push(chunk);
      });
      req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
      req.on('error', reject);
    });

  /**
   * Outside DICT's API, for a stack's end-to-end suites (they run in another process than this server): another
   * participant opens a MED case, as `as(ispb)` lets a spec in this process do. `POST
   * /test-control/participants/{ispb}/infraction-reports` (an InfractionReportInput) or `/refunds` (a RefundInput),
   * JSON in and out, over the same mutual TLS. The case is then read back through DICT's own getInfractionReport and
   * getRefund.
   */
  const control = async (req: IncomingMessage, res: ServerResponse, url: URL) => {
    const route = /^\/test-control\/participants\/(\d{8})\/(infraction-reports|refunds)$/.exec(url.pathname);
    let status: number;
    let body: unknown;
    try {
      if (!route || req.method !== 'POST') throw new Problem(404, 'NotFound', 'Not found', 'No such test control');
      const [, participant, what] = route;
      const input: unknown = JSON.parse(await readBody(req));
      body =
        what === 'refunds'
          ? med.createRefund(participant, input as RefundInput)
          : med.createInfractionReport(participant, input as InfractionReportInput);
      status = 201;
    } catch (error) {
      status = error instanceof Problem ? error.status : 400;
      body = { type: error instanceof Problem ? error.type : 'BadRequest', detail: (error as Error).message };
    }
    log(`dict-test-server: ${req.method} ${url.pathname} ${status}`);
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'https://dict.test');
    if (url.pathname.startsWith('/test-control/')) return control(req, res, url);
    const record: RecordedRequest = { operationId: undefined, status: 0, signed: false };
    let operation: DictOperation | undefined;
    let fault: Fault | undefined;
    let status: number;
    let xml: string;
    try {
      if (!url.pathname.startsWith(`${DICT_BASE_PATH}/`)) throw new Problem(404, 'NotFound', 'Not found', 'No such resource');
      const matched = document.match(req.method ?? 'GET', url.pathname.slice(DICT_BASE_PATH.length));
      if (!matched || !ANSWERED.includes(matched.operation.operationId)) {
        throw new Problem(404, 'NotFound', 'Not found', `The DICT test server answers ${ANSWERED.join(', ')}`);
      }
      operation = matched.operation;
      record.operationId = operation.operationId;
      // A MED case's id is in its path: recorded before any fault, so a spec finds its refused or failed calls too.
      record.key ??= matched.params.InfractionReportId ?? matched.params.RefundId;
      fault = faults.find((f) => f.times > 0 && (!f.operationId || f.operationId === operation?.operationId));
      if (fault) fault.times--;
      if (fault?.kind === 'unavailable') {
        throw new Problem(503, 'ServiceUnavailable', 'Service Unavailable', 'Service is under scheduled maintenance');
      }
      if (fault?.kind === 'unsigned_refusal') throw new Problem(400, 'BadRequest', 'Bad Request', 'Refused, unsigned');
      if (fault?.kind === 'rate_limited') {
        res.setHeader('Retry-After', String(fault.retryAfterSeconds ?? 1));
        throw new Problem(429, 'RateLimited', 'Rate limited', 'Too many requests: the policy bucket is empty');
      }
      let result: { status: number; xml: string };
      if (operation.requestSchema) {
        if (!/xml/i.test(req.headers['content-type'] ?? ''))
          throw new Problem(400, 'BadRequest', 'Bad Request', 'Content-Type must be application/xml');
        const text = await readBody(req);
        const doc = strictParse(text);
        const validation = document.validateXml(operation.requestSchema, rootOf(doc));
        if (!validation.ok) {
          const type =
            operation.operationId === 'createEntry'
              ? 'EntryInvalid'
              : operation.operationId === 'createClaim'
                ? 'ClaimInvalid'
                : 'BadRequest';
          throw new Problem(
            400,
            type,
            ({ EntryInvalid: 'Entry is invalid', ClaimInvalid: 'Claim is invalid' } as Record<string, string>)[type] ?? 'Bad Request',
            'Request has invalid fields',
            validation.violations.slice(0, 20),
          );
        }
        await checkSignature(text, doc);
        record.signed = true;
        // The signature covers the whole document (checked above), so the body read is the one signed.
        const opId = operation.operationId;
        if (opId === 'createEntry') result = createEntry(validation.value, record);
        else if (opId === 'deleteEntry') result = deleteEntry(validation.value, matched.params.Key, record);
        else if (opId === 'createClaim') {
          const claim = claims.create(options.participant, claimInput(validation.value));
          record.key = claim.key;
          result = { status: 201, xml: answer('CreateClaimResponse', claimXml(claim, '    ')) };
        } else if (/InfractionReport$|Refund$/.test(opId)) result = medAction(opId, validation.value, matched.params, record);
        else result = claimAction(opId, validation.value, matched.params.ClaimId, record);
      } else if (operation.operationId === 'listClaims') {
        result = listClaims(url);
      } else if (operation.operationId === 'listInfractionReport') {
        result = listInfractionReports(url);
      } else if (operation.operationId === 'listRefund') {
        result = listRefunds(url);
      } else if (operation.operationId === 'getInfractionReport') {
        checkHeaders(operation, req);
        const report = med.getInfractionReport(options.participant, matched.params.InfractionReportId);
        result = { status: 200, xml: answer('GetInfractionReportResponse', infractionReportXml(report, '    ')) };
      } else if (operation.operationId === 'getRefund') {
        checkHeaders(operation, req);
        const refund = med.getRefund(options.participant, matched.params.RefundId);
        result = { status: 200, xml: answer('GetRefundResponse', refundXml(refund, '    ')) };
      } else if (operation.operationId === 'getClaim') {
        checkHeaders(operation, req);
        const claim = claims.get(options.participant, matched.params.ClaimId);
        record.key = claim.key;
        result = { status: 200, xml: answer('GetClaimResponse', claimXml(claim, '    ')) };
      } else if (operation.operationId === 'getEntryByCid') {
        result = getEntryByCid(operation, req, matched.params.Cid, record);
      } else {
        result = getEntry(operation, req, matched.params.Key, record);
      }
      status = result.status;
      xml = checkedAnswer(operation, status, await sign(result.xml));
    } catch (error) {
      const problem =
        error instanceof Problem
          ? error
          : new Problem(500, 'InternalServerError', 'Internal Server Error', (error as Error).message.slice(0, 300));
      if (!(error instanceof Problem)) log(`dict-test-server: ${(error as Error).stack ?? String(error)}`);
      status = problem.status;
      record.problem = problem.type;
      if (problem.violations.length > 0) record.violations = problem.violations;
      xml = fault?.kind === 'unsigned_refusal' ? problemXml(problem) : await sign(problemXml(problem)).catch(() => problemXml(problem));
      if (status === 503) res.setHeader('Retry-After', '1');
    }
    // A late answer: the call was carried out (or refused) as usual; its answer leaves after the delay.
    if (fault?.kind === 'late') await new Promise((r) => setTimeout(r, fault?.delayMs ?? 5_000));
    if (record.operationId === 'deleteEntry' && record.key && options.slowDeletes?.includes(record.key)) {
      await new Promise((r) => setTimeout(r, options.slowDeleteMs ?? 2_000));
    }
    record.status = status;
    requests.push(record);
    if (requests.length > 1_000) requests.shift();
    log(
      `dict-test-server: ${req.method} ${url.pathname} ${record.operationId ?? '-'} ${status}${record.problem ? ` ${record.problem}` : ''}${record.key ? ` key=${record.key}` : ''}`,
    );
    if (res.destroyed) return;
    res.writeHead(status, {
      'content-type': status >= 400 ? 'application/problem+xml; charset=utf-8' : 'application/xml; charset=utf-8',
      'keep-alive': 'timeout=60',
    });
    res.end(xml);
  };

  const server: Server = createServer(
    {
      key: read(options.pki.serverKeyFile),
      cert: read(options.pki.serverCertFile),
      ca: read(options.pki.caFile),
      requestCert: true,
      rejectUnauthorized: true,
      minVersion: 'TLSv1.2',
    },
    (req, res) => void handle(req, res),
  );
  server.keepAliveTimeout = 60_000;
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port, options.host ?? '127.0.0.1', () => resolve());
    });
  } catch (error) {
    await signer.close();
    throw error;
  }
  const port = (server.address() as AddressInfo).port;
  return {
    url: `https://127.0.0.1:${port}${DICT_BASE_PATH}`,
    port,
    entries,
    claims: claims.claims,
    infractionReports: med.reports,
    refunds: med.refunds,
    as: (participant) => ({
      createInfractionReport: (input) => med.createInfractionReport(participant, input),
      cancelInfractionReport: (id) => med.cancelInfractionReport(participant, id),
      createRefund: (input) => med.createRefund(participant, input),
      cancelRefund: (id) => med.cancelRefund(participant, id),
      createClaim: (input) => claims.create(participant, input),
      acknowledgeClaim: (id) => claims.acknowledge(participant, id),
      confirmClaim: (id, reason) => claims.confirm(participant, id, reason),
      cancelClaim: (id, reason) => claims.cancel(participant, id, reason),
      completeClaim: (id, requestId) => claims.complete(participant, id, requestId).claim,
    }),
    holdElsewhere: (key, participant) => holdElsewhere({ key, participant }),
    advanceClock: (ms) => {
      clockOffsetMs += ms;
    },
    requests,
    injectFault: (fault) => void faults.push({ ...fault }),
    close: async () => {
      await new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
      await signer.close();
    },
  };
}
