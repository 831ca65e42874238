import 'reflect-metadata';
import { webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';

x509.cryptoProvider.set(webcrypto);

const RSA: webcrypto.RsaHashedKeyGenParams = {
  name: 'RSASSA-PKCS1-v1_5',
  hash: 'SHA-256',
  publicExponent: new Uint8Array([1, 0, 1]),
  modulusLength: 2048,
};

/** A throw-away self-signed signing certificate and its key (PEM), in memory, for specs of the XML signatures. */
export async function selfSignedIdentity(commonName: string): Promise<{ key: string; cert: string }> {
  const keys = await webcrypto.subtle.generateKey(RSA, true, ['sign', 'verify']);
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: '01',
    name: `CN=${commonName}`,
    notBefore: new Date(Date.now() - 60_000),
    notAfter: new Date(Date.now() + 24 * 3600 * 1000),
    keys,
    signingAlgorithm: RSA,
  });
  const key = x509.PemConverter.encode(await webcrypto.subtle.exportKey('pkcs8', keys.privateKey), 'PRIVATE KEY');
  return { key, cert: cert.toString('pem') };
}
