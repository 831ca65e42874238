/**
 * class-transformer conversions of query-string values, which arrive as strings: only the exact forms
 * convert; anything else stays as sent, for the validator to refuse naming the field.
 */
export const booleanString = ({ value }: { value: unknown }) => (value === 'true' ? true : value === 'false' ? false : value);

export const integerString = ({ value }: { value: unknown }) =>
  typeof value === 'string' && /^\d{1,9}$/.test(value) ? Number(value) : value;

/**
 * A path id of a resource numbered 1, 2, 3...: only its canonical decimal form (no sign, no leading zero,
 * no exponent) converts; "007" or "1e3" would be a second spelling of one id and stay strings to be refused.
 * A number (the same id in a Kafka payload) passes through.
 */
export const positiveIntegerString = ({ value }: { value: unknown }) =>
  typeof value === 'string' && /^[1-9]\d{0,15}$/.test(value) ? Number(value) : value;
