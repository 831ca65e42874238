/**
 * The one shape every failure travels in, across HTTP and Kafka: a stable machine code (the
 * codes of docs/api.md "Errors", e.g. `invalid_fee`), a sentence for humans, and the offending field when
 * there is one. The gateway turns it into each endpoint family's body shape.
 */
export interface ErrorDetail {
  code: string;
  message: string;
  field?: string;
}

/** Attach a spec error code to a class-validator constraint: `@IsIn([...], withCode('invalid_fee'))`. */
export function withCode(code: string, message?: string): { context: { code: string }; message?: string } {
  return message ? { context: { code }, message } : { context: { code } };
}

/** Code used for malformed input that has no code of its own (docs/api.md: "Errors"). */
export const INVALID_REQUEST = 'invalid_request';
