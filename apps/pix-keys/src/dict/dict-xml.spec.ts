import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { endToEndId } from './bacen-dict-directory';
import {
  child,
  childText,
  createEntryXml,
  deleteEntryXml,
  DictXmlError,
  parseXml,
  readEntry,
  readProblem,
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

const request = () =>
  createEntryXml({
    entry: {
      key: '52998224725',
      keyType: 'CPF',
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

  it('signs with an enveloped XML-DSig signature, first child of the root, that verifies with the signer certificate only', () => {
    const signed = signXml(request(), signer);
    expect(signed).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<CreateEntryRequest><ds:Signature /);
    expect(signed).toContain('<ds:Reference URI="">');
    expect(signed).toContain('<ds:X509Certificate>');
    expect(verifiedDocument(signed, signer.cert).localName).toBe('CreateEntryRequest');
    expect(() => verifiedDocument(signed, other.cert)).toThrow(DictXmlError);
    expect(() => verifiedDocument(signXml(request(), other), signer.cert)).toThrow(/signature invalid/);
    expect(() => verifiedDocument(signed.replace('0007654321', '0007654322'), signer.cert)).toThrow(/signature invalid/);
    expect(() => verifiedDocument(request(), signer.cert)).toThrow(/expected one XML-DSig signature, found 0/);
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

describe('endToEndId', () => {
  it('is the SPI format: E, the ISPB, the UTC minute, 11 alphanumerics (32 characters)', () => {
    const id = endToEndId('12345678', new Date('2026-11-27T04:05:59Z'));
    expect(id).toMatch(/^E12345678202611270405[A-Za-z0-9]{11}$/);
    expect(id).toHaveLength(32);
  });
});
