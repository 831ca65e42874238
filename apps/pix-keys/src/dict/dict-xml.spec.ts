import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SignedXml } from 'xml-crypto';
import { DICT_DOCUMENT_DIR, DictDocument } from '@partner/dict-test-server';
import {
  actionXml,
  centsOf,
  child,
  childText,
  createEntryXml,
  deleteEntryXml,
  DictXmlError,
  ENVELOPED,
  EXC_C14N,
  parseXml,
  readEntry,
  readInfractionReportList,
  readProblem,
  readRefundList,
  RSA_SHA256,
  SHA256,
  signXml,
  verifiedDocument,
} from './dict-xml';
import { selfSignedIdentity } from './signing-identity.spec-support';

let signer: { key: string; cert: string };
let other: { key: string; cert: string };
beforeAll(async () => {
  [signer, other] = await Promise.all([selfSignedIdentity('pix-keys signing'), selfSignedIdentity('someone else')]);
});

/** The root element of `xml`. */
const rootOf = (xml: string) => {
  const root = parseXml(xml).documentElement;
  if (!root) throw new Error('no root element');
  return root;
};

const request = (keyType: 'CPF' | 'EVP' = 'CPF') =>
  createEntryXml({
    entry: {
      ...(keyType === 'CPF' ? { key: '52998224725' } : {}),
      keyType,
      account: {
        participant: '12345678',
        branch: '0001',
        accountNumber: '0007654321',
        accountType: 'TRAN',
        openingDate: new Date('2010-01-10T03:00:00Z'),
      },
      owner: { type: 'NATURAL_PERSON', taxIdNumber: '52998224725', name: "D'Ávila & <Filhos>" },
    },
    requestId: 'a946d533-7f22-42a5-9a9b-e87cd55c0f4d',
    reason: 'USER_REQUESTED',
  });

describe('the DICT XML', () => {
  it('builds CreateEntryRequest as the document example lays it out, escaping text', () => {
    const root = rootOf(request());
    expect(root.localName).toBe('CreateEntryRequest');
    const entry = child(root, 'Entry');
    expect([childText(entry, 'Key'), childText(entry, 'KeyType'), childText(root, 'Reason'), childText(root, 'RequestId')]).toEqual([
      '52998224725',
      'CPF',
      'USER_REQUESTED',
      'a946d533-7f22-42a5-9a9b-e87cd55c0f4d',
    ]);
    expect(childText(child(entry, 'Owner'), 'Name')).toBe("D'Ávila & <Filhos>");
    expect(request()).toContain('<Name>D&apos;Ávila &amp; &lt;Filhos&gt;</Name>');
    expect(childText(child(entry, 'Account'), 'OpeningDate')).toBe('2010-01-10T03:00:00.000Z');
    expect(rootOf(deleteEntryXml('52998224725', '12345678', 'USER_REQUESTED')).localName).toBe('DeleteEntryRequest');
  });

  it('builds an EVP CreateEntryRequest without Key: DICT generates it', () => {
    const entry = child(rootOf(request('EVP')), 'Entry');
    expect([childText(entry, 'Key'), childText(entry, 'KeyType')]).toEqual([undefined, 'EVP']);
  });

  it("signs as the Central Bank's quickstart: first child of the root, KeyInfo and the whole document referenced, issuer and serial", () => {
    const signed = signXml(request(), signer);
    expect(signed).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<CreateEntryRequest><ds:Signature /);
    expect([...signed.matchAll(/<ds:Reference URI="([^"]*)">/g)].map((m) => m[1])).toEqual(['#key-info-id', '']);
    expect(signed).toContain(
      '<ds:KeyInfo Id="key-info-id"><ds:X509Data><ds:X509IssuerSerial><ds:X509IssuerName>CN=pix-keys signing</ds:X509IssuerName><ds:X509SerialNumber>1</ds:X509SerialNumber>',
    );
    expect(signed).not.toContain('<ds:X509Certificate>');
    expect(verifiedDocument(signed, signer.cert).localName).toBe('CreateEntryRequest');
    expect(() => verifiedDocument(signed, other.cert)).toThrow(DictXmlError);
    expect(() => verifiedDocument(signXml(request(), other), signer.cert)).toThrow(/signature invalid/);
    expect(() => verifiedDocument(signed.replace('0007654321', '0007654322'), signer.cert)).toThrow(/signature invalid/);
    // The KeyInfo is signed too: naming another certificate breaks the signature.
    expect(() => verifiedDocument(signed.replace('<ds:X509SerialNumber>1<', '<ds:X509SerialNumber>2<'), signer.cert)).toThrow(
      /signature invalid/,
    );
    expect(() => verifiedDocument(request(), signer.cert)).toThrow(/expected one XML-DSig signature, found 0/);
  });

  it('accepts an answer signed with the one whole-document reference alone, and refuses a reference to anything else', () => {
    /** request() signed by xml-crypto with the whole-document reference and `more`. */
    const signedWith = (...more: Array<{ xpath: string; transforms: string[] }>) => {
      const sig = new SignedXml({
        privateKey: signer.key,
        publicCert: signer.cert,
        signatureAlgorithm: RSA_SHA256,
        canonicalizationAlgorithm: EXC_C14N,
      });
      sig.addReference({ xpath: '/*', digestAlgorithm: SHA256, transforms: [ENVELOPED, EXC_C14N], isEmptyUri: true });
      for (const ref of more) sig.addReference({ ...ref, digestAlgorithm: SHA256 });
      sig.computeSignature(request(), { prefix: 'ds', location: { reference: '/*', action: 'prepend' } });
      return sig.getSignedXml();
    };
    expect(verifiedDocument(signedWith(), signer.cert).localName).toBe('CreateEntryRequest');
    // A second reference to a part of the document (signature wrapping's opening) is not the profile.
    const partial = signedWith({ xpath: '//*[local-name(.)="Entry"]', transforms: [EXC_C14N] });
    expect(() => verifiedDocument(partial, signer.cert)).toThrow(/at most its own KeyInfo/);
  });

  it('refuses what is not well-formed, and any document type declaration', () => {
    expect(() => parseXml('<a><b></a>')).toThrow(DictXmlError);
    expect(() => parseXml('<?xml version="1.0"?><!DOCTYPE a [<!ENTITY x "y">]><a>&x;</a>')).toThrow(/document type declaration/);
    expect(() => parseXml('')).toThrow(DictXmlError);
  });

  it('reads an entry and a problem as DICT answers them', () => {
    const example = readFileSync(
      join(__dirname, '../../../../vendor/bacen-pix-dict-api/openapi/examples/entries/GetEntryResponse.xml'),
      'utf8',
    );
    expect(readEntry(child(rootOf(example), 'Entry'))).toEqual({
      key: '11122233300',
      keyType: 'CPF',
      account: {
        participant: '12345678',
        branch: '0001',
        accountNumber: '0007654321',
        accountType: 'CACC',
        openingDate: new Date('2010-01-10T03:00:00Z'),
      },
      owner: { type: 'NATURAL_PERSON', taxIdNumber: '11122233300', name: 'João Silva' },
      creationDate: new Date('2019-11-18T03:00:00Z'),
      keyOwnershipDate: new Date('2019-11-18T03:00:00Z'),
    });
    const problem = rootOf(
      '<problem xmlns="urn:ietf:rfc:7807"><type>https://dict.pi.rsfn.net.br/api/v1/error/EntryKeyInCustodyOfDifferentParticipant</type><title>t</title><status>400</status></problem>',
    );
    expect(readProblem(problem, 400)).toEqual({ type: 'EntryKeyInCustodyOfDifferentParticipant', status: 400, title: 't', detail: null });
  });
});

describe('the DICT XML of MED cases', () => {
  const document = new DictDocument();
  const example = (file: string) => rootOf(readFileSync(join(DICT_DOCUMENT_DIR, 'examples', file), 'utf8'));
  const validRequest = (operationId: string, xml: string) => {
    const schema = document.operation(operationId).requestSchema;
    if (!schema) throw new Error(`${operationId} has no request body`);
    return document.validateXml(schema, rootOf(xml));
  };

  it('reads RefundAmount in cents by its digits, never through a float', () => {
    expect(centsOf('200.00')).toBe(20000);
    expect(centsOf('123.45')).toBe(12345);
    expect(centsOf('0.29')).toBe(29);
    expect(centsOf('1.1')).toBe(110);
    expect(centsOf('7')).toBe(700);
    expect(centsOf('19.990')).toBe(1999);
    expect(centsOf('90071992547409.91')).toBe(9007199254740991);
    for (const bad of ['1.234', '-1.00', '1e3', '', '1,00', '90071992547409.92']) expect(() => centsOf(bad)).toThrow(DictXmlError);
  });

  it("reads the document's own listings of reports and refund requests", () => {
    expect(readInfractionReportList(example('infractions/ListInfractionReportsResponse.xml'))).toEqual({
      hasMore: true,
      reports: [
        expect.objectContaining({
          id: '91d65e98-97c0-4b0f-b577-73625da1f9fc',
          transactionId: 'E9999901012341234123412345678900',
          infractionType: 'FRAUD',
          reportedBy: 'DEBITED_PARTICIPANT',
          status: 'CLOSED',
          debitedParticipant: '99999010',
          creditedParticipant: '99999011',
          lastModified: new Date('2020-01-17T10:00:00.000Z'),
          analysisResult: 'AGREED',
        }),
      ],
    });
    expect(readRefundList(example('refunds/ListRefundsResponse.xml'))).toEqual({
      hasMore: true,
      refunds: [
        expect.objectContaining({
          id: '91d65e98-97c0-4b0f-b577-73625da1f9fc',
          refundReason: 'FRAUD',
          amountCents: 20000,
          status: 'CLOSED',
          contestedParticipant: '99999010',
          requestingParticipant: '99999011',
          infractionReportId: null,
          analysisResult: 'TOTALLY_ACCEPTED',
          rejectionReason: null,
          refundTransactionId: 'D9999901012341234123412345678900',
        }),
      ],
    });
  });

  it("builds the acknowledge and close requests as the document's schemas take them, absent fields left out", () => {
    const id = '91d65e98-97c0-4b0f-b577-73625da1f9fc';
    const report = ['InfractionReportId', id] as [string, string];
    expect(validRequest('acknowledgeInfractionReport', actionXml('AcknowledgeInfractionReportRequest', report, '12345678'))).toMatchObject({
      ok: true,
    });
    const close = actionXml('CloseInfractionReportRequest', report, '12345678', [
      ['AnalysisResult', 'DISAGREED'],
      ['AnalysisDetails', null],
    ]);
    expect(close).not.toContain('AnalysisDetails');
    expect(validRequest('closeInfractionReport', close)).toMatchObject({ ok: true, value: { AnalysisResult: 'DISAGREED' } });
    const rejected = actionXml('CloseRefundRequest', ['RefundId', id], '12345678', [
      ['RefundAnalysisResult', 'REJECTED'],
      ['RefundAnalysisDetails', 'Sem saldo & conta encerrada'],
      ['RefundRejectionReason', 'NO_BALANCE'],
      ['RefundTransactionId', undefined],
    ]);
    expect(validRequest('closeRefund', rejected)).toMatchObject({
      ok: true,
      value: { RefundAnalysisDetails: 'Sem saldo & conta encerrada', RefundRejectionReason: 'NO_BALANCE' },
    });
    expect(validRequest('closeRefund', rejected.replace('NO_BALANCE', 'NO_MONEY'))).toMatchObject({ ok: false });
  });
});
