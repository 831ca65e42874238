import { createHash, createSign, X509Certificate } from 'node:crypto';
import { DOMParser, Document, Element, Node, XMLSerializer } from '@xmldom/xmldom';
import { ExclusiveCanonicalization, SignedXml } from 'xml-crypto';
import { ACCOUNT_TYPES, AccountType } from '@partner/contracts';
import {
  CreateEntryRequest,
  DeleteReason,
  DictClaim,
  DictClaimReason,
  DictClaimRequest,
  DictClaimStatus,
  DictClaimType,
  DictAccount,
  DictAnalysisResult,
  DictInfractionReport,
  DictInfractionReportStatus,
  DictInfractionType,
  DictRefund,
  DictRefundReason,
  DictRefundRejectionReason,
  DictRefundResult,
  DictRefundStatus,
  DictOwner,
  DictProblem,
  DictRegisteredEntry,
} from './dict-directory';

/**
 * The XML of the DICT API (vendor/bacen-pix-dict-api, `openapi/openapi.yaml`): the requests this service sends,
 * built as the document's examples are and signed with XML-DSig; the answers it reads, their signature checked
 * first. The document says only that the signature is enveloped, a child of the root; the profile is the Central
 * Bank's own client's (vendor/bacen-pix-dict-quickstart, `XMLSigner.java`): `ds:Signature` first child of the root,
 * exclusive C14N, RSA-SHA256, two SHA-256 references (the signature's KeyInfo, `#key-info-id`, exclusive C14N; the
 * whole document, `URI=""`, enveloped-signature then exclusive C14N), and KeyInfo naming the certificate by issuer
 * and serial number. Answers are accepted in that profile or with the one whole-document reference alone.
 */
export const XMLDSIG_NS = 'http://www.w3.org/2000/09/xmldsig#';
export const RSA_SHA256 = 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256';
export const EXC_C14N = 'http://www.w3.org/2001/10/xml-exc-c14n#';
export const SHA256 = 'http://www.w3.org/2001/04/xmlenc#sha256';
export const ENVELOPED = 'http://www.w3.org/2000/09/xmldsig#enveloped-signature';

/** The PEM of the key that signs and of the certificate that goes with it (KeyInfo). */
export interface SigningIdentity {
  key: string;
  cert: string;
}

const escape = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');

/** `<Name>value</Name>` for each pair, escaped. */
const elements = (pairs: Array<[string, string]>, indent: string) => pairs.map(([n, v]) => `${indent}<${n}>${escape(v)}</${n}>`).join('\n');

/** A `BrazilianAccount`'s elements (an entry's Account, a claim's ClaimerAccount), in the examples' order. */
const accountElements = (account: DictAccount) =>
  elements(
    [
      ['Participant', account.participant],
      ['Branch', account.branch],
      ['AccountNumber', account.accountNumber],
      ['AccountType', account.accountType],
      ['OpeningDate', account.openingDate.toISOString()],
    ],
    '            ',
  );

/** A `NaturalPerson`'s elements (an entry's Owner, a claim's Claimer). */
const personElements = (person: DictOwner) =>
  elements(
    [
      ['Type', person.type],
      ['TaxIdNumber', person.taxIdNumber],
      ['Name', person.name],
    ],
    '            ',
  );

/**
 * CreateEntryRequest, unsigned, in the order and layout of `openapi/examples/entries/CreateEntryRequest.xml`; an EVP
 * entry without `Key` (DICT generates it).
 */
export function createEntryXml({ entry, requestId, reason }: CreateEntryRequest): string {
  const { account, owner } = entry;
  const key: Array<[string, string]> = entry.key === undefined ? [] : [['Key', entry.key]];
  return `<?xml version="1.0" encoding="UTF-8"?>
<CreateEntryRequest>
    <Entry>
${elements([...key, ['KeyType', entry.keyType]], '        ')}
        <Account>
${accountElements(account)}
        </Account>
        <Owner>
${personElements(owner)}
        </Owner>
    </Entry>
${elements(
  [
    ['Reason', reason],
    ['RequestId', requestId],
  ],
  '    ',
)}
</CreateEntryRequest>`;
}

/** DeleteEntryRequest, unsigned, as `openapi/examples/entries/DeleteEntryRequest.xml`. */
export function deleteEntryXml(key: string, participant: string, reason: DeleteReason): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<DeleteEntryRequest>
${elements(
  [
    ['Key', key],
    ['Participant', participant],
    ['Reason', reason],
  ],
  '    ',
)}
</DeleteEntryRequest>`;
}

/**
 * An operation's request on one claim, report or refund request (AcknowledgeClaimRequest, CloseInfractionReportRequest,
 * CloseRefundRequest...), unsigned, as the document's examples (`openapi/examples/claims/`, `infractions/`, `refunds/`):
 * its id (`ClaimId`, `InfractionReportId`, `RefundId`), the caller, then the operation's own fields in order (a Reason,
 * an AnalysisResult...), absent ones left out.
 */
export function actionXml(
  root: string,
  id: [name: string, value: string],
  participant: string,
  own: Array<[string, string | null | undefined]> = [],
): string {
  const present = own.filter((p): p is [string, string] => p[1] !== null && p[1] !== undefined);
  return `<?xml version="1.0" encoding="UTF-8"?>
<${root}>
${elements([id, ['Participant', participant], ...present], '    ')}
</${root}>`;
}

/** CreateClaimRequest, unsigned, in the order and layout of `openapi/examples/claims/CreateClaimRequest.xml`. */
export function createClaimXml(claim: DictClaimRequest): string {
  const { claimerAccount: account, claimer } = claim;
  return `<?xml version="1.0" encoding="UTF-8"?>
<CreateClaimRequest>
    <Claim>
${elements(
  [
    ['Type', claim.type],
    ['Key', claim.key],
    ['KeyType', claim.keyType],
  ],
  '        ',
)}
        <ClaimerAccount>
${accountElements(account)}
        </ClaimerAccount>
        <Claimer>
${personElements(claimer)}
        </Claimer>
    </Claim>
</CreateClaimRequest>`;
}

/** The Id of the signature's KeyInfo, the quickstart's (`XMLSigner.KEY_INFO_ID`). */
export const KEY_INFO_ID = 'key-info-id';

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('base64');
const exclusiveC14n = (node: Element) => new ExclusiveCanonicalization().process(node, {}).toString();

/**
 * `xml` signed as the quickstart signs (see above), the signature the root's first child. By hand around xml-crypto's
 * canonicalisation, because xml-crypto resolves references before it inserts the signature and so cannot sign the
 * signature's own KeyInfo; a Java verifier (javax.xml.crypto, as the quickstart's) accepts it
 * (tools/dict-test-server: quickstart-signer.int.spec.ts).
 */
export function signXml(xml: string, signer: SigningIdentity): string {
  const doc = parseXml(xml);
  const root = doc.documentElement;
  if (!root) throw new DictXmlError('no root element');
  const cert = new X509Certificate(signer.cert);
  // Java's getIssuerDN().toString() order (most specific first), which the quickstart writes.
  const issuer = cert.issuer.split('\n').reverse().join(', ');
  const serial = BigInt(`0x${cert.serialNumber}`).toString();
  const keyInfo = `<ds:KeyInfo Id="${KEY_INFO_ID}"><ds:X509Data><ds:X509IssuerSerial><ds:X509IssuerName>${escape(issuer)}</ds:X509IssuerName><ds:X509SerialNumber>${serial}</ds:X509SerialNumber></ds:X509IssuerSerial></ds:X509Data></ds:KeyInfo>`;
  const rootDigest = sha256(exclusiveC14n(root));
  const reference = (uri: string, transforms: string[], digest: string) =>
    `<ds:Reference URI="${uri}"><ds:Transforms>${transforms.map((t) => `<ds:Transform Algorithm="${t}"/>`).join('')}</ds:Transforms><ds:DigestMethod Algorithm="${SHA256}"/><ds:DigestValue>${digest}</ds:DigestValue></ds:Reference>`;
  const keyInfoDigest = sha256(exclusiveC14n(parseFragment(keyInfo)));
  const signedInfo = `<ds:SignedInfo><ds:CanonicalizationMethod Algorithm="${EXC_C14N}"/><ds:SignatureMethod Algorithm="${RSA_SHA256}"/>${reference(`#${KEY_INFO_ID}`, [EXC_C14N], keyInfoDigest)}${reference('', [ENVELOPED, EXC_C14N], rootDigest)}</ds:SignedInfo>`;
  const signatureValue = createSign('RSA-SHA256')
    .update(exclusiveC14n(parseFragment(signedInfo)), 'utf8')
    .sign(signer.key, 'base64');
  const signature = parseFragment(`${signedInfo}<ds:SignatureValue>${signatureValue}</ds:SignatureValue>${keyInfo}`, 'Signature');
  root.insertBefore(doc.importNode(signature, true), root.firstChild);
  return `<?xml version="1.0" encoding="UTF-8"?>\n${new XMLSerializer().serializeToString(root)}`;
}

/** `content` parsed inside a `ds:` element (`ds:Signature` around a fragment), answering that element's first child or the element. */
function parseFragment(content: string, wrapper?: 'Signature'): Element {
  const doc = parseXml(`<ds:${wrapper ?? 'Signature'} xmlns:ds="${XMLDSIG_NS}">${content}</ds:${wrapper ?? 'Signature'}>`);
  const outer = doc.documentElement;
  const first = outer && childElements(outer)[0];
  if (!outer || !first) throw new DictXmlError('empty signature fragment');
  return wrapper ? outer : first;
}

export class DictXmlError extends Error {}

/**
 * Parses XML strictly: any error or warning of the parser is an error, and so is a document type
 * declaration (DICT uses none; refusing them rules out entity expansion).
 */
export function parseXml(xml: string): Document {
  if (/<!DOCTYPE/i.test(xml)) throw new DictXmlError('a document type declaration is not allowed');
  let doc: Document;
  try {
    doc = new DOMParser({
      onError: (level, message) => {
        throw new DictXmlError(`${level}: ${message}`);
      },
    }).parseFromString(xml, 'application/xml');
  } catch (error) {
    throw new DictXmlError(`not well-formed XML: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!doc.documentElement) throw new DictXmlError('no root element');
  return doc;
}

const isElement = (n: Node): n is Element => n.nodeType === Node.ELEMENT_NODE;
const childElements = (parent: Element): Element[] => Array.from(parent.childNodes).filter(isElement);

/**
 * Checks the enveloped signature of `xml` against `trustedCert` (never a certificate the document carries or names)
 * and answers the signed document, re-parsed from what the whole-document reference covers: nothing unsigned is read.
 * Refuses anything but one `ds:Signature` child of the root whose references are one to the whole document
 * (`URI=""`, enveloped) and at most one to the signature's own KeyInfo (the quickstart's profile).
 */
export function verifiedDocument(xml: string, trustedCert: string): Element {
  const doc = parseXml(xml);
  const root = doc.documentElement;
  if (!root) throw new DictXmlError('no root element');
  const signatures = Array.from(doc.getElementsByTagNameNS(XMLDSIG_NS, 'Signature'));
  if (signatures.length !== 1) throw new DictXmlError(`expected one XML-DSig signature, found ${signatures.length}`);
  if (signatures[0].parentNode !== root) throw new DictXmlError('the signature is not enveloped by the root element');
  const sig = new SignedXml({ publicCert: trustedCert, getCertFromKeyInfo: () => null });
  sig.loadSignature(signatures[0]);
  if (sig.signatureAlgorithm !== RSA_SHA256) throw new DictXmlError(`signature algorithm ${sig.signatureAlgorithm} is not RSA-SHA256`);
  const references = sig.getReferences();
  const whole = references.findIndex((r) => (r.uri === '' || r.isEmptyUri) && r.transforms.includes(ENVELOPED));
  const keyInfo = Array.from(signatures[0].getElementsByTagNameNS(XMLDSIG_NS, 'KeyInfo'))[0];
  const keyInfoId = keyInfo?.getAttribute('Id');
  const others = references.filter((_, i) => i !== whole);
  const toOwnKeyInfo = (uri: string | undefined) => keyInfoId !== null && keyInfoId !== undefined && uri === `#${keyInfoId}`;
  if (whole < 0 || others.length > 1 || !others.every((r) => toOwnKeyInfo(r.uri))) {
    throw new DictXmlError(
      `the signature must reference the whole document (URI="", enveloped) and at most its own KeyInfo; it references ${references.map((r) => `"${r.uri ?? ''}"`).join(', ')}`,
    );
  }
  let valid = false;
  try {
    valid = sig.checkSignature(xml);
  } catch (error) {
    throw new DictXmlError(`signature invalid: ${error instanceof Error ? error.message : String(error)}`);
  }
  const signed = sig.getSignedReferences()[whole];
  if (!valid || !signed) throw new DictXmlError('signature invalid');
  const signedRoot = parseXml(signed).documentElement;
  if (!signedRoot) throw new DictXmlError('the signed document has no root element');
  return signedRoot;
}

/** The text of the one child element `name` of `parent`; undefined when there is none. */
export function childText(parent: Element, name: string): string | undefined {
  const found = childElements(parent).filter((e) => e.localName === name);
  if (found.length > 1) throw new DictXmlError(`<${name}> appears ${found.length} times in <${parent.localName}>`);
  return found[0]?.textContent ?? undefined;
}

export function child(parent: Element, name: string): Element {
  const found = childElements(parent).filter((e) => e.localName === name);
  if (found.length !== 1) throw new DictXmlError(`expected one <${name}> in <${parent.localName}>, found ${found.length}`);
  return found[0];
}

const required = (parent: Element, name: string): string => {
  const text = childText(parent, name);
  if (text === undefined) throw new DictXmlError(`<${parent.localName}> has no <${name}>`);
  return text;
};

const date = (parent: Element, name: string): Date => {
  const text = required(parent, name);
  const at = new Date(text);
  if (Number.isNaN(at.getTime())) throw new DictXmlError(`<${name}> is not a date-time: ${text}`);
  return at;
};

/** An `Entry` element of an answer (`ExtendedEntry`). */
export function readEntry(entry: Element): DictRegisteredEntry {
  const account = child(entry, 'Account');
  const owner = child(entry, 'Owner');
  const keyType = required(entry, 'KeyType');
  const accountType = required(account, 'AccountType');
  const ownerType = required(owner, 'Type');
  if (keyType !== 'CPF' && keyType !== 'EVP') throw new DictXmlError(`KeyType ${keyType}: this service registers CPF and EVP keys only`);
  if (!(ACCOUNT_TYPES as readonly string[]).includes(accountType)) throw new DictXmlError(`unknown AccountType ${accountType}`);
  if (ownerType !== 'NATURAL_PERSON') throw new DictXmlError(`Owner Type ${ownerType} is not NATURAL_PERSON`);
  return {
    key: required(entry, 'Key'),
    keyType,
    account: {
      participant: required(account, 'Participant'),
      branch: childText(account, 'Branch') ?? '',
      accountNumber: required(account, 'AccountNumber'),
      accountType: accountType as AccountType,
      openingDate: date(account, 'OpeningDate'),
    },
    owner: { type: ownerType, taxIdNumber: required(owner, 'TaxIdNumber'), name: required(owner, 'Name') },
    creationDate: date(entry, 'CreationDate'),
    keyOwnershipDate: date(entry, 'KeyOwnershipDate'),
  };
}

/** An RFC 7807 problem (`openapi/schemas.yaml`, `Problem`): `<problem xmlns="urn:ietf:rfc:7807">`. */
export function readProblem(problem: Element, httpStatus: number): DictProblem {
  if (problem.localName !== 'problem') throw new DictXmlError(`expected a <problem>, got <${problem.localName}>`);
  const type = required(problem, 'type');
  const status = Number(childText(problem, 'status') ?? httpStatus);
  return {
    type: type.slice(type.lastIndexOf('/') + 1),
    status: Number.isInteger(status) ? status : httpStatus,
    title: required(problem, 'title'),
    detail: childText(problem, 'detail') ?? null,
  };
}

/** The root element's name, or the problem it is. */
export function expectRoot(root: Element, name: string): Element {
  if (root.localName !== name) throw new DictXmlError(`expected <${name}>, got <${root.localName}>`);
  return root;
}

const CLAIM_TYPES: readonly string[] = ['OWNERSHIP', 'PORTABILITY'];
const CLAIM_STATUSES: readonly string[] = ['OPEN', 'WAITING_RESOLUTION', 'CONFIRMED', 'CANCELLED', 'COMPLETED'];
const CLAIM_REASONS: readonly string[] = ['USER_REQUESTED', 'ACCOUNT_CLOSURE', 'FRAUD', 'DEFAULT_OPERATION', 'RECONCILIATION'];

const oneOf = <T extends string>(allowed: readonly string[], value: string, name: string): T => {
  if (!allowed.includes(value)) throw new DictXmlError(`unknown ${name} ${value}`);
  return value as T;
};

/** A `Claim` element of an answer (`ExtendedClaim`). */
export function readClaim(claim: Element): DictClaim {
  const optional = (name: string) => childText(claim, name) ?? null;
  const completion = optional('CompletionPeriodEnd');
  const confirmReason = optional('ConfirmReason');
  const cancelReason = optional('CancelReason');
  const cancelledBy = optional('CancelledBy');
  if (cancelledBy !== null && cancelledBy !== 'DONOR' && cancelledBy !== 'CLAIMER')
    throw new DictXmlError(`unknown CancelledBy ${cancelledBy}`);
  return {
    id: required(claim, 'Id'),
    type: oneOf<DictClaimType>(CLAIM_TYPES, required(claim, 'Type'), 'ClaimType'),
    key: required(claim, 'Key'),
    keyType: required(claim, 'KeyType'),
    claimerParticipant: required(child(claim, 'ClaimerAccount'), 'Participant'),
    claimerTaxIdNumber: required(child(claim, 'Claimer'), 'TaxIdNumber'),
    donorParticipant: required(claim, 'DonorParticipant'),
    status: oneOf<DictClaimStatus>(CLAIM_STATUSES, required(claim, 'Status'), 'ClaimStatus'),
    resolutionPeriodEnd: date(claim, 'ResolutionPeriodEnd'),
    completionPeriodEnd: completion === null ? null : date(claim, 'CompletionPeriodEnd'),
    lastModified: date(claim, 'LastModified'),
    confirmReason: confirmReason === null ? null : oneOf<DictClaimReason>(CLAIM_REASONS, confirmReason, 'ConfirmReason'),
    cancelReason: cancelReason === null ? null : oneOf<DictClaimReason>(CLAIM_REASONS, cancelReason, 'CancelReason'),
    cancelledBy,
  };
}

/** ListClaimsResponse: its claims and whether more follow. */
export function readClaimList(root: Element): { claims: DictClaim[]; hasMore: boolean } {
  const { items, hasMore } = readList(root, 'ListClaimsResponse', 'Claims', 'Claim', readClaim);
  return { claims: items, hasMore };
}

const optionalText = (parent: Element, name: string) => childText(parent, name) ?? null;

/**
 * A RefundAmount (`format: currency`, reais with up to two decimals: "200.00") in cents, by its digits: never through a
 * float, so 0.29 is 29 whatever binary makes of it.
 */
export function centsOf(amount: string): number {
  const found = /^(\d+)(?:\.(\d+))?$/.exec(amount.trim());
  const fraction = found?.[2] ?? '';
  if (!found || !/^\d{0,2}0*$/.test(fraction)) throw new DictXmlError(`RefundAmount ${amount} is not an amount of reais and cents`);
  const cents = Number(`${found[1]}${fraction.slice(0, 2).padEnd(2, '0')}`);
  if (!Number.isSafeInteger(cents)) throw new DictXmlError(`RefundAmount ${amount} is too large`);
  return cents;
}

const INFRACTION_STATUSES: readonly string[] = ['OPEN', 'ACKNOWLEDGED', 'CLOSED', 'CANCELLED'];
const INFRACTION_TYPES: readonly string[] = ['FRAUD', 'REFUND_REQUEST', 'REFUND_CANCELLED'];
const REPORTED_BY: readonly string[] = ['DEBITED_PARTICIPANT', 'CREDITED_PARTICIPANT'];
const ANALYSIS_RESULTS: readonly string[] = ['AGREED', 'DISAGREED'];

/** An `InfractionReport` element of an answer (`ExtendedInfractionReport`). */
export function readInfractionReport(report: Element): DictInfractionReport {
  const result = optionalText(report, 'AnalysisResult');
  return {
    id: required(report, 'Id'),
    transactionId: required(report, 'TransactionId'),
    infractionType: oneOf<DictInfractionType>(INFRACTION_TYPES, required(report, 'InfractionType'), 'InfractionType'),
    reportedBy: oneOf<DictInfractionReport['reportedBy']>(REPORTED_BY, required(report, 'ReportedBy'), 'ReportedBy'),
    reportDetails: optionalText(report, 'ReportDetails'),
    status: oneOf<DictInfractionReportStatus>(INFRACTION_STATUSES, required(report, 'Status'), 'InfractionReportStatus'),
    debitedParticipant: required(report, 'DebitedParticipant'),
    creditedParticipant: required(report, 'CreditedParticipant'),
    creationTime: date(report, 'CreationTime'),
    lastModified: date(report, 'LastModified'),
    analysisResult: result === null ? null : oneOf<DictAnalysisResult>(ANALYSIS_RESULTS, result, 'AnalysisResult'),
    analysisDetails: optionalText(report, 'AnalysisDetails'),
  };
}

const REFUND_STATUSES: readonly string[] = ['OPEN', 'CLOSED', 'CANCELLED'];
const REFUND_REASONS: readonly string[] = ['FRAUD', 'OPERATIONAL_FLAW', 'REFUND_CANCELLED'];
const REFUND_RESULTS: readonly string[] = ['TOTALLY_ACCEPTED', 'PARTIALLY_ACCEPTED', 'REJECTED'];
const REJECTION_REASONS: readonly string[] = ['NO_BALANCE', 'ACCOUNT_CLOSURE', 'CANNOT_REFUND', 'OTHER'];

/** A `Refund` element of an answer (`ExtendedRefund`). */
export function readRefund(refund: Element): DictRefund {
  const result = optionalText(refund, 'AnalysisResult');
  const rejection = optionalText(refund, 'RefundRejectionReason');
  return {
    id: required(refund, 'Id'),
    transactionId: required(refund, 'TransactionId'),
    refundReason: oneOf<DictRefundReason>(REFUND_REASONS, required(refund, 'RefundReason'), 'RefundReason'),
    amountCents: centsOf(required(refund, 'RefundAmount')),
    refundDetails: optionalText(refund, 'RefundDetails'),
    status: oneOf<DictRefundStatus>(REFUND_STATUSES, required(refund, 'Status'), 'RefundStatus'),
    requestingParticipant: required(refund, 'RequestingParticipant'),
    contestedParticipant: required(refund, 'ContestedParticipant'),
    creationTime: date(refund, 'CreationTime'),
    lastModified: date(refund, 'LastModified'),
    infractionReportId: optionalText(refund, 'InfractionReportId'),
    analysisResult: result === null ? null : oneOf<DictRefundResult>(REFUND_RESULTS, result, 'RefundAnalysisResult'),
    analysisDetails: optionalText(refund, 'AnalysisDetails'),
    rejectionReason: rejection === null ? null : oneOf<DictRefundRejectionReason>(REJECTION_REASONS, rejection, 'RefundRejectionReason'),
    refundTransactionId: optionalText(refund, 'RefundTransactionId'),
  };
}

/** A listing's items (`<Wrapper><Item>…` as the examples, or repeated `<Item>` as the schema's XML rules read) and HasMoreElements. */
function readList<T>(
  root: Element,
  name: string,
  wrapper: string,
  item: string,
  read: (e: Element) => T,
): { items: T[]; hasMore: boolean } {
  const list = expectRoot(root, name);
  const more = required(list, 'HasMoreElements');
  if (more !== 'true' && more !== 'false') throw new DictXmlError(`HasMoreElements ${more} is not a boolean`);
  const wrapped = childElements(list).find((e) => e.localName === wrapper);
  const items = [...childElements(wrapped ?? list), ...(wrapped ? childElements(list) : [])].filter((e) => e.localName === item);
  return { items: items.map(read), hasMore: more === 'true' };
}

/** ListInfractionReportsResponse: its reports and whether more follow. */
export function readInfractionReportList(root: Element): { reports: DictInfractionReport[]; hasMore: boolean } {
  const { items, hasMore } = readList(root, 'ListInfractionReportsResponse', 'InfractionReports', 'InfractionReport', readInfractionReport);
  return { reports: items, hasMore };
}

/** ListRefundsResponse: its refund requests and whether more follow. */
export function readRefundList(root: Element): { refunds: DictRefund[]; hasMore: boolean } {
  const { items, hasMore } = readList(root, 'ListRefundsResponse', 'Refunds', 'Refund', readRefund);
  return { refunds: items, hasMore };
}
