/**
 * The proxy's TLS certificate (docker-compose.yml's secrets `proxy_tls_cert` and `proxy_tls_key`): the
 * operator's own (PROXY_TLS_CERT_FILE and PROXY_TLS_KEY_FILE, docs/operations.md: "TLS at the proxy"), or, when
 * none is named, a self-signed one that compose:up generates once beside the env file: for a trial or CI,
 * which a client trusts only by being given it (never a browser's padlock).
 */
import 'reflect-metadata';
import { webcrypto, X509Certificate } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import * as x509 from '@peculiar/x509';

x509.cryptoProvider.set(webcrypto);

const ECDSA: webcrypto.EcKeyGenParams & webcrypto.EcdsaParams = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
const DAY_MS = 24 * 3600 * 1000;

/** Whether `certFile` holds a certificate valid for another day at least, and `keyFile` exists. */
export function currentCertificate(certFile: string, keyFile: string): boolean {
  if (!existsSync(certFile) || !existsSync(keyFile)) return false;
  try {
    return new Date(new X509Certificate(readFileSync(certFile)).validTo).getTime() > Date.now() + DAY_MS;
  } catch {
    return false;
  }
}

/**
 * A self-signed certificate for `localhost` and 127.0.0.1 (and `hosts`), valid 90 days, written to
 * `certFile` and `keyFile` (mode 600); kept when a current one is there.
 */
export async function ensureSelfSignedCertificate(certFile: string, keyFile: string, hosts: readonly string[] = []): Promise<boolean> {
  if (currentCertificate(certFile, keyFile)) return false;
  const keys = await webcrypto.subtle.generateKey(ECDSA, true, ['sign', 'verify']);
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: Date.now().toString(16),
    name: 'CN=localhost, O=partner service self-signed (compose:up)',
    notBefore: new Date(Date.now() - 60_000),
    notAfter: new Date(Date.now() + 90 * DAY_MS),
    keys,
    signingAlgorithm: ECDSA,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
      new x509.SubjectAlternativeNameExtension([
        { type: 'dns', value: 'localhost' },
        { type: 'ip', value: '127.0.0.1' },
        ...hosts.map((value) => ({ type: 'dns' as const, value })),
      ]),
    ],
  });
  const key = x509.PemConverter.encode(await webcrypto.subtle.exportKey('pkcs8', keys.privateKey), 'PRIVATE KEY');
  writeFileSync(keyFile, key, { mode: 0o600 });
  chmodSync(keyFile, 0o600);
  writeFileSync(certFile, cert.toString('pem'), { mode: 0o644 });
  return true;
}
