import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DOMParser, Element } from '@xmldom/xmldom';
import { DICT_DOCUMENT_DIR } from './dict-document';
import { DictPki, ensureDictPki } from './dict-pki';
import { quickstartSigner, signTheQuickstartWay, verifyTheQuickstartWay } from './quickstart-signer';

// Integration (java 17 and mvn; no database, no broker): the Central Bank's own signer (vendor/bacen-pix-dict-quickstart,
// XMLSigner.java, built once into .cache/dict-quickstart-signer/) signs one of the published examples with a development
// certificate, and javax.xml.crypto.dsig checks it as a Java DICT would. The reference the DICT adapter is proven against.

const XMLDSIG_NS = 'http://www.w3.org/2000/09/xmldsig#';
/** The published DeleteEntryRequest example without its empty `<Signature>` placeholder. */
const unsigned = readFileSync(join(DICT_DOCUMENT_DIR, 'examples', 'entries', 'DeleteEntryRequest.xml'), 'utf8').replace(
  /\s*<Signature\s*(\/>|><\/Signature>)/,
  '',
);

let dir: string;
let pki: DictPki;
let signed: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'quickstart-signer-'));
  pki = await ensureDictPki(dir);
  quickstartSigner(); // the first run builds the jar: Maven, up to minutes when its repository is cold
  signed = signTheQuickstartWay(unsigned, pki.signingKeyFile, pki.signingCertFile);
}, 600_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ds = (root: Element, name: string) => Array.from(root.getElementsByTagNameNS(XMLDSIG_NS, name));

describe('the quickstart signer (the Central Bank example client XMLSigner)', () => {
  it('signs in its profile: ds:Signature first in the root, two references, KeyInfo by issuer and serial', () => {
    expect(unsigned).not.toContain('Signature');
    const root = new DOMParser().parseFromString(signed, 'application/xml').documentElement;
    if (!root) throw new Error('no root element');
    expect(root.localName).toBe('DeleteEntryRequest');
    const first = root.firstChild as Element | null;
    expect([first?.namespaceURI, first?.localName, first?.prefix]).toEqual([XMLDSIG_NS, 'Signature', 'ds']);
    expect(ds(root, 'Signature')).toHaveLength(1);
    expect(ds(root, 'Reference').map((r) => r.getAttribute('URI'))).toEqual(['#key-info-id', '']);
    expect(ds(root, 'KeyInfo').map((k) => k.getAttribute('Id'))).toEqual(['key-info-id']);
    expect(ds(root, 'X509IssuerSerial')).toHaveLength(1);
    expect(ds(root, 'X509Certificate')).toHaveLength(0);
    // Java's getIssuerDN().toString(): the issuer's RDNs in the reverse of their order in the certificate (RFC 2253's),
    // ", " between. dict-pki.ts names the CA 'CN=..., O=...', which @peculiar/x509 encodes in that order (CN first).
    expect(ds(root, 'X509IssuerName').map((n) => n.textContent)).toEqual(['O=development only, CN=Partner service development DICT CA']);
    expect(ds(root, 'X509SerialNumber').map((n) => n.textContent)).toEqual(['4']);
    expect(ds(root, 'SignatureMethod').map((m) => m.getAttribute('Algorithm'))).toEqual([
      'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
    ]);
    for (const element of ['Key', 'Participant', 'Reason']) expect(root.getElementsByTagName(element)).toHaveLength(1);
  });

  it('verifies with the signing certificate', () => {
    expect(verifyTheQuickstartWay(signed, pki.signingCertFile)).toEqual({ valid: true });
  });

  it('refuses the document once one character of its signed content is changed', () => {
    expect(signed).toContain('<Participant>12345678</Participant>');
    const tampered = signed.replace('<Participant>12345678</Participant>', '<Participant>12345679</Participant>');
    expect(verifyTheQuickstartWay(tampered, pki.signingCertFile)).toEqual({ valid: false, reason: 'reference URI="" digest mismatch' });
  });

  it('refuses a changed KeyInfo, which the #key-info-id reference covers', () => {
    const tampered = signed.replace('<ds:X509SerialNumber>4<', '<ds:X509SerialNumber>5<');
    expect(tampered).not.toBe(signed);
    expect(verifyTheQuickstartWay(tampered, pki.signingCertFile)).toEqual({
      valid: false,
      reason: 'reference URI="#key-info-id" digest mismatch',
    });
  });

  it('refuses it with another certificate', () => {
    const result = verifyTheQuickstartWay(signed, pki.dictSigningCertFile);
    expect(result.valid).toBe(false);
    expect(result.reason).toMatch(/signature value does not verify/);
  });
});
