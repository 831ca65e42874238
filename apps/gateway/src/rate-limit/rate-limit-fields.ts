import { BucketLevel, RateLimit } from './token-buckets';

/**
 * The RateLimit-Policy and RateLimit header fields of draft-ietf-httpapi-ratelimit-headers-10 (structured
 * fields: a list of one item, the policy's name, with its parameters), for one token bucket:
 *
 *   RateLimit-Policy: "partner";q=<burst>;w=<seconds an empty bucket takes to fill>
 *   RateLimit: "partner";r=<whole tokens left>;t=<seconds until the bucket is full again>
 *
 * A token bucket has no fixed window: `w` is the time the quota `q` takes to come back from nothing, and
 * `t` the time the quota takes to come back from the current level (0 when full). Without a level (the
 * shared store could not be reached, the request was let through) only the policy is sent.
 */
export function rateLimitFields(policy: string, limit: RateLimit, level: BucketLevel | undefined): Record<string, string> {
  const window = Math.max(1, Math.ceil(limit.burst / limit.perSecond));
  const fields: Record<string, string> = { 'ratelimit-policy': `"${policy}";q=${Math.floor(limit.burst)};w=${window}` };
  if (level) fields.ratelimit = `"${policy}";r=${level.remaining};t=${level.resetSeconds}`;
  return fields;
}
