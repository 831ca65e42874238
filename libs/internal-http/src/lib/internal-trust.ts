import { createHmac, timingSafeEqual } from 'node:crypto';
import { BlockList, isIP } from 'node:net';
import { hostOrBlockProblem, ServiceConfig } from '@partner/config';

/**
 * Internal trust (docs/adr/0017-internal-trust.md). A service's internal HTTP port answers direct queries
 * whose payload names a partner; the gateway alone authenticates partners, so a service answers only a
 * request the gateway signed: HMAC-SHA256 with the stack's shared INTERNAL_SECRET over a timestamp, the
 * topic, the request context's headers and the body. And a request's `reply_url` header may only name a
 * listener the operator allowed (REPLY_TARGETS), so a message on a command topic cannot make a service
 * call an address of the sender's choosing.
 */
export const INTERNAL_SIGNATURE_HEADERS = { signature: 'x-internal-signature', timestamp: 'x-internal-timestamp' } as const;

/** A signed request older or newer than this is refused (clocks of one deployment agree to well within it). */
export const SIGNATURE_MAX_AGE_MS = 60_000;

const SCHEME = 'v1=';

/** What a signature covers: when, which topic, on whose behalf (the context headers) and the exact body. */
export interface SignedParts {
  topic: string;
  requestId?: string;
  partnerId?: string;
  body: string;
}

const mac = (secret: string, timestamp: string, p: SignedParts): Buffer =>
  createHmac('sha256', secret)
    .update([timestamp, p.topic, p.requestId ?? '', p.partnerId ?? '', p.body].join('\n'))
    .digest();

/** The headers that vouch for a request the gateway sends on an internal port. */
export function signInternalRequest(secret: string, parts: SignedParts, now = Date.now()): Record<string, string> {
  const timestamp = String(now);
  return {
    [INTERNAL_SIGNATURE_HEADERS.timestamp]: timestamp,
    [INTERNAL_SIGNATURE_HEADERS.signature]: SCHEME + mac(secret, timestamp, parts).toString('hex'),
  };
}

/** Whether `signature` and `timestamp` (the headers as received) vouch for `parts` under `secret`, now. */
export function verifyInternalRequest(
  secret: string,
  signature: unknown,
  timestamp: unknown,
  parts: SignedParts,
  now = Date.now(),
): boolean {
  if (typeof signature !== 'string' || typeof timestamp !== 'string' || !signature.startsWith(SCHEME) || !/^\d{1,16}$/.test(timestamp))
    return false;
  if (Math.abs(now - Number(timestamp)) > SIGNATURE_MAX_AGE_MS) return false;
  const given = Buffer.from(signature.slice(SCHEME.length), 'hex');
  const expected = mac(secret, timestamp, parts);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * The hosts a service may send a direct reply to: IP addresses and CIDR blocks (`10.0.0.0/8`, `::1/128`),
 * and host names matched exactly, never resolved first (a name is allowed, not whatever it resolves to).
 */
export class ReplyTargets {
  private readonly blocks = new BlockList();
  private readonly names = new Set<string>();

  constructor(entries: readonly string[] = new ServiceConfig().REPLY_TARGETS) {
    for (const entry of entries) {
      const problem = hostOrBlockProblem(entry);
      if (problem) throw new Error(problem);
      const [address, bits] = entry.split('/');
      const family = isIP(address);
      if (family === 0) this.names.add(entry.toLowerCase());
      else if (bits === undefined) this.blocks.addAddress(address, family === 4 ? 'ipv4' : 'ipv6');
      else this.blocks.addSubnet(address, Number(bits), family === 4 ? 'ipv4' : 'ipv6');
    }
  }

  /** Whether a reply may be sent to `url`'s host. */
  allows(url: URL): boolean {
    const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
    const family = isIP(host);
    if (family === 0) return this.names.has(host.toLowerCase());
    return this.blocks.check(host, family === 4 ? 'ipv4' : 'ipv6');
  }
}
