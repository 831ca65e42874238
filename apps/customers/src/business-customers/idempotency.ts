import { requestFingerprint } from '@partner/db';
import { BusinessCustomerBody } from './customer.repository';

/** `value` with every object's keys in sorted order (arrays keep theirs): one spelling for the same JSON. */
function withSortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withSortedKeys);
  if (value === null || typeof value !== 'object') return value;
  const object = value as Record<string, unknown>;
  return Object.fromEntries(
    Object.keys(object)
      .sort()
      .map((key) => [key, withSortedKeys(object[key])]),
  );
}

/**
 * What identifies "the same registration" for an idempotency key: the registration as stored (the body
 * as validated, in plain JSON; never the key nor the partner, which scopes the key), its object keys
 * sorted, so that the same JSON sent with its fields in another order is the same request. Every value
 * counts as sent: a field left out and the same field sent `null` are different requests, as they are
 * stored differently.
 */
export function fingerprintOf(body: BusinessCustomerBody): string {
  return requestFingerprint([withSortedKeys(body)]);
}
