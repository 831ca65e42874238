import type { ValidationOptions } from 'class-validator';

/**
 * The one shape every failure travels in, across HTTP and Kafka: a stable machine code (the
 * codes of docs/api.md "Errors", e.g. `invalid_fee`), a sentence for humans, and the offending field when
 * there is one. The gateway turns it into each endpoint family's body shape. `C`: the codes it may carry
 * (the contracts library names them; this library knows only `invalid_request`).
 */
export interface ErrorDetail<C extends string = string> {
  code: C;
  message: string;
  field?: string;
}

/** Code used for malformed input that has no code of its own (docs/api.md: "Errors"). */
export const INVALID_REQUEST = 'invalid_request';
export type InvalidRequest = typeof INVALID_REQUEST;

/** A class-validator constraint's options that carry an error code, its type kept. */
export interface CodedValidationOptions<C extends string> extends ValidationOptions {
  context: { code: C };
}

/**
 * Attach an error code to a class-validator constraint: `@IsIn([...], withCode('invalid_fee'))`. The
 * building block only: contract classes name codes through their family's helper (`codesOf` in
 * @partner/contracts), which accepts that family's codes and no other.
 */
export function withCode<const C extends string>(code: C, message?: string): CodedValidationOptions<C> {
  return message ? { context: { code }, message } : { context: { code } };
}
