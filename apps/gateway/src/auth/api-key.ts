import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** Which environment a partner key belongs to, readable from the key itself: `pk_live_` or `pk_sandbox_`. */
export type ApiKeyKind = 'live' | 'sandbox';

/** The key shown of a stored key: its first 16 characters (kind and a few random ones), never enough to use it. */
export const PREFIX_LENGTH = 16;

/**
 * API keys are 256-bit random secrets; we keep only their SHA-256. A fast hash is right for
 * high-entropy keys (there is nothing to brute-force), and it lets the key itself be the index.
 * Verification only hashes; a gateway accepts the keys of its own environment only (key-environment.ts).
 */
export function generateApiKey(kind: ApiKeyKind = 'sandbox'): { key: string; prefix: string; hash: string } {
  return generateSecret(`pk_${kind}_`);
}

/** A 256-bit random secret after `label`, its shown prefix and its SHA-256 (partner and operator keys alike). */
export function generateSecret(label: string): { key: string; prefix: string; hash: string } {
  const key = `${label}${randomBytes(32).toString('base64url')}`;
  return { key, prefix: key.slice(0, PREFIX_LENGTH), hash: hashApiKey(key) };
}

export const hashApiKey = (key: string): string => createHash('sha256').update(key, 'utf8').digest('hex');

/** Compares two hex digests in constant time. */
export function sameDigest(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}
