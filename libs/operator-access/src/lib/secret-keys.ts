import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** The key shown of a stored key: its first 16 characters (kind and a few random ones), never enough to use it. */
export const PREFIX_LENGTH = 16;

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
