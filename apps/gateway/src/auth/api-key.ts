import { generateSecret } from '@partner/operator-access';

// The secret functions partner keys share with operator keys (the CLI creates those) live in libs/operator-access.
export { generateSecret, hashApiKey, PREFIX_LENGTH, sameDigest } from '@partner/operator-access';

/** Which environment a partner key belongs to, readable from the key itself: `pk_live_` or `pk_sandbox_`. */
export type ApiKeyKind = 'live' | 'sandbox';

/**
 * API keys are 256-bit random secrets; we keep only their SHA-256. A fast hash is right for
 * high-entropy keys (there is nothing to brute-force), and it lets the key itself be the index.
 * Verification only hashes; a gateway accepts the keys of its own environment only (key-environment.ts).
 */
export function generateApiKey(kind: ApiKeyKind = 'sandbox'): { key: string; prefix: string; hash: string } {
  return generateSecret(`pk_${kind}_`);
}
