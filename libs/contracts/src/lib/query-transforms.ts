/**
 * class-transformer conversions of query-string values, which arrive as strings: only the exact forms
 * convert; anything else stays as sent, for the validator to refuse naming the field.
 */
export const booleanString = ({ value }: { value: unknown }) => (value === 'true' ? true : value === 'false' ? false : value);

export const integerString = ({ value }: { value: unknown }) => (typeof value === 'string' && /^\d{1,9}$/.test(value) ? Number(value) : value);
