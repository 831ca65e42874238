/**
 * The development certificates of the DICT test server and of its client, pix-keys: generated once into
 * a git-ignored folder (`.cache/dict/<name>/`, keys mode 0600), never committed, worthless anywhere else.
 * Production uses the operator's ICP-Brasil certificates and the RSFN's chain instead (docs/operations/pix-and-dict.md, "What production needs").
 *
 *   ca.pem                     the development CA: issues every certificate below
 *   server.pem, server.key     the test server's TLS certificate (127.0.0.1, localhost, dict-test)
 *   client.pem, client.key     pix-keys' TLS client certificate (mutual TLS)
 *   signing.pem, signing.key   pix-keys' XML-DSig signing certificate (the requests)
 *   dict-signing.pem/.key      the test server's XML-DSig signing certificate (its answers)
 */
import 'reflect-metadata';
import { webcrypto, X509Certificate as NodeX509 } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as x509 from '@peculiar/x509';

x509.cryptoProvider.set(webcrypto);

export interface DictPki {
  dir: string;
  caFile: string;
  serverCertFile: string;
  serverKeyFile: string;
  clientCertFile: string;
  clientKeyFile: string;
  signingCertFile: string;
  signingKeyFile: string;
  dictSigningCertFile: string;
  dictSigningKeyFile: string;
}

const RSA: webcrypto.RsaHashedKeyGenParams = {
  name: 'RSASSA-PKCS1-v1_5',
  hash: 'SHA-256',
  publicExponent: new Uint8Array([1, 0, 1]),
  modulusLength: 2048,
};
const YEAR_MS = 365 * 24 * 3600 * 1000;

export function dictPkiFiles(dir: string): DictPki {
  const f = (name: string) => join(dir, name);
  return {
    dir,
    caFile: f('ca.pem'),
    serverCertFile: f('server.pem'),
    serverKeyFile: f('server.key'),
    clientCertFile: f('client.pem'),
    clientKeyFile: f('client.key'),
    signingCertFile: f('signing.pem'),
    signingKeyFile: f('signing.key'),
    dictSigningCertFile: f('dict-signing.pem'),
    dictSigningKeyFile: f('dict-signing.key'),
  };
}

const pemKey = async (key: webcrypto.CryptoKey) => x509.PemConverter.encode(await webcrypto.subtle.exportKey('pkcs8', key), 'PRIVATE KEY');

/** Whether every file is there and each certificate is valid for another day at least. */
function current(pki: DictPki): boolean {
  const certs = [pki.caFile, pki.serverCertFile, pki.clientCertFile, pki.signingCertFile, pki.dictSigningCertFile];
  const keys = [pki.serverKeyFile, pki.clientKeyFile, pki.signingKeyFile, pki.dictSigningKeyFile];
  if (![...certs, ...keys].every((file) => existsSync(file))) return false;
  try {
    return certs.every((file) => new Date(new NodeX509(readFileSync(file)).validTo).getTime() > Date.now() + 24 * 3600 * 1000);
  } catch {
    return false;
  }
}

/** The development certificates in `dir`, generated when missing or about to expire. */
export async function ensureDictPki(dir: string): Promise<DictPki> {
  const pki = dictPkiFiles(dir);
  if (current(pki)) return pki;
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const notBefore = new Date(Date.now() - 60_000);
  const notAfter = new Date(Date.now() + 2 * YEAR_MS);
  const caKeys = await webcrypto.subtle.generateKey(RSA, true, ['sign', 'verify']);
  const ca = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: '01',
    name: 'CN=Partner service development DICT CA, O=development only',
    notBefore,
    notAfter,
    keys: caKeys,
    signingAlgorithm: RSA,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
    ],
  });
  const issue = async (serial: string, subject: string, usage: 'server' | 'client' | 'signing', certFile: string, keyFile: string) => {
    const keys = await webcrypto.subtle.generateKey(RSA, true, ['sign', 'verify']);
    const extensions: x509.Extension[] = [new x509.BasicConstraintsExtension(false, undefined, true)];
    if (usage === 'signing')
      extensions.push(new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.nonRepudiation, true));
    else {
      extensions.push(new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyEncipherment, true));
      extensions.push(
        new x509.ExtendedKeyUsageExtension([usage === 'server' ? x509.ExtendedKeyUsage.serverAuth : x509.ExtendedKeyUsage.clientAuth]),
      );
    }
    if (usage === 'server') {
      extensions.push(
        new x509.SubjectAlternativeNameExtension([
          { type: 'ip', value: '127.0.0.1' },
          { type: 'dns', value: 'localhost' },
          // Its service name on the Compose path's network (docker-compose.local-chains.yml).
          { type: 'dns', value: 'dict-test' },
        ]),
      );
    }
    const cert = await x509.X509CertificateGenerator.create({
      serialNumber: serial,
      subject,
      issuer: ca.subject,
      notBefore,
      notAfter,
      publicKey: keys.publicKey,
      signingKey: caKeys.privateKey,
      signingAlgorithm: RSA,
      extensions,
    });
    writeFileSync(keyFile, await pemKey(keys.privateKey), { mode: 0o600 });
    chmodSync(keyFile, 0o600);
    writeFileSync(certFile, cert.toString('pem'));
  };
  await issue('02', 'CN=127.0.0.1, O=development DICT test server', 'server', pki.serverCertFile, pki.serverKeyFile);
  await issue('03', 'CN=pix-keys, O=development DICT client', 'client', pki.clientCertFile, pki.clientKeyFile);
  await issue('04', 'CN=pix-keys signing, O=development DICT client', 'signing', pki.signingCertFile, pki.signingKeyFile);
  await issue(
    '05',
    'CN=DICT test server signing, O=development DICT test server',
    'signing',
    pki.dictSigningCertFile,
    pki.dictSigningKeyFile,
  );
  writeFileSync(pki.caFile, ca.toString('pem'));
  return pki;
}
