import { createPrivateKey, createPublicKey, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { PixKeysConfig } from '../config/pix-keys.config';

export const DICT_CREDENTIALS = Symbol('DictCredentials');

/** The PEM material the DICT adapter uses, read once at start-up. Nothing of it is ever logged. */
export interface DictCredentials {
  /** Mutual TLS. */
  clientCert: string;
  clientKey: string;
  ca: string;
  /** XML-DSig of the requests. */
  signingCert: string;
  signingKey: string;
  /** DICT's certificate, to check its answers' signatures. */
  responseCert: string;
}

export class DictCredentialsError extends Error {}

/**
 * Reads and checks every file the DICT settings name, so that a wrong one stops the service at start-up
 * rather than failing every registration later: each certificate parses and is valid now, each key parses
 * and belongs to its certificate, the CA file holds at least one certificate.
 */
export function loadDictCredentials(config: PixKeysConfig, now = new Date()): DictCredentials {
  const problems: string[] = [];
  const read = (setting: keyof PixKeysConfig): string => {
    const path = String(config[setting]);
    try {
      return readFileSync(path, 'utf8');
    } catch (error) {
      problems.push(`${setting}: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
      return '';
    }
  };
  const certificate = (setting: keyof PixKeysConfig, pem: string): X509Certificate | undefined => {
    if (!pem) return undefined;
    try {
      const cert = new X509Certificate(pem);
      if (new Date(cert.validFrom) > now || new Date(cert.validTo) < now) {
        problems.push(`${setting}: the certificate is not valid now (valid from ${cert.validFrom} to ${cert.validTo})`);
      }
      return cert;
    } catch (error) {
      problems.push(`${setting}: not a PEM certificate (${(error as Error).message})`);
      return undefined;
    }
  };
  const pair = (certSetting: keyof PixKeysConfig, keySetting: keyof PixKeysConfig, certPem: string, keyPem: string) => {
    const cert = certificate(certSetting, certPem);
    if (!keyPem) return;
    try {
      const key = createPrivateKey(keyPem);
      const matches = createPublicKey(key)
        .export({ type: 'spki', format: 'der' })
        .equals(cert?.publicKey.export({ type: 'spki', format: 'der' }) ?? Buffer.alloc(0));
      if (cert && !matches) problems.push(`${keySetting}: the key is not the one of ${certSetting}`);
    } catch (error) {
      problems.push(`${keySetting}: not a PEM private key (${(error as Error).message})`);
    }
  };

  const credentials: DictCredentials = {
    clientCert: read('DICT_CLIENT_CERT_FILE'),
    clientKey: read('DICT_CLIENT_KEY_FILE'),
    ca: read('DICT_CA_FILE'),
    signingCert: read('DICT_SIGNING_CERT_FILE'),
    signingKey: read('DICT_SIGNING_KEY_FILE'),
    responseCert: read('DICT_RESPONSE_SIGNING_CERT_FILE'),
  };
  pair('DICT_CLIENT_CERT_FILE', 'DICT_CLIENT_KEY_FILE', credentials.clientCert, credentials.clientKey);
  pair('DICT_SIGNING_CERT_FILE', 'DICT_SIGNING_KEY_FILE', credentials.signingCert, credentials.signingKey);
  certificate('DICT_RESPONSE_SIGNING_CERT_FILE', credentials.responseCert);
  if (credentials.ca && !/-----BEGIN CERTIFICATE-----/.test(credentials.ca)) problems.push('DICT_CA_FILE: no PEM certificate in it');
  else certificate('DICT_CA_FILE', credentials.ca);
  if (problems.length > 0) throw new DictCredentialsError(`Invalid DICT credentials:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  return credentials;
}
