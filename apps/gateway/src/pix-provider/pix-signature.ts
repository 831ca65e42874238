import { createHmac, timingSafeEqual } from 'node:crypto';

/** How far a signature's timestamp may be from now, either way: a captured notification replays for at most this long. */
export const SIGNATURE_TOLERANCE_S = 300;

const HEADER = /^t=(\d{1,12}),v1=([0-9a-f]{64})$/;

/**
 * The v1 signature of a body at a timestamp: hex HMAC-SHA256 of `<t>.<body>` with the shared secret, over
 * the body's bytes (a string is taken as its UTF-8 bytes: only the provider's side and the tests sign strings).
 */
export const pixSignature = (secret: string, t: number, body: Buffer | string): string =>
  createHmac('sha256', secret).update(`${t}.`).update(body).digest('hex');

/**
 * Checks X-Pix-Signature (`t=<unix seconds>,v1=<hex>`) against the body's bytes as received: undefined
 * when it holds with one of `secrets` (the current one first, then the previous one during a rotation;
 * empty ones are none), else why not (the 401's message). Compared in constant time, with each secret.
 */
export function signatureProblem(
  secrets: readonly string[],
  header: string | string[] | undefined,
  body: Buffer,
  nowS: number,
): string | undefined {
  const keys = secrets.filter((s) => s !== '');
  if (secrets[0] === '' || keys.length === 0)
    return 'Pix provider notifications are not configured on this gateway (PIX_PROVIDER_WEBHOOK_SECRET)';
  if (typeof header !== 'string' || header === '') return 'missing X-Pix-Signature';
  const parts = HEADER.exec(header);
  if (!parts) return 'X-Pix-Signature must be t=<unix seconds>,v1=<64 lowercase hex digits>';
  const t = Number(parts[1]);
  if (Math.abs(nowS - t) > SIGNATURE_TOLERANCE_S) return `X-Pix-Signature timestamp is more than ${SIGNATURE_TOLERANCE_S} s from now`;
  // Both 32 bytes: the header's pattern holds exactly 64 hex digits. Every secret is tried (no early exit).
  const given = Buffer.from(parts[2], 'hex');
  const matches = keys.map((key) => timingSafeEqual(Buffer.from(pixSignature(key, t, body), 'hex'), given));
  return matches.includes(true) ? undefined : 'X-Pix-Signature does not match the body';
}
