import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * API keys are 256-bit random secrets; we keep only their SHA-256. A fast hash is right for
 * high-entropy keys (there is nothing to brute-force), and it lets the key itself be the index.
 */
export function generateApiKey(): { key: string; prefix: string; hash: string } {
  const key = `pk_sandbox_${randomBytes(32).toString('base64url')}`;
  return { key, prefix: key.slice(0, 16), hash: hashApiKey(key) };
}

export const hashApiKey = (key: string): string => createHash('sha256').update(key, 'utf8').digest('hex');

/** Compares two hex digests in constant time. */
export function sameDigest(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}
