/**
 * Text the API takes anywhere (a JSON string or key, a query or path parameter, a header it reads) is
 * at most this many UTF-16 code units. No contract field comes near it (the longest, a customer's
 * metadata, is 4096 bytes in all); the bound keeps a single huge string from reaching a validator.
 */
export const MAX_TEXT_LENGTH = 4096;

/**
 * C0 control characters other than tab, line feed and carriage return (NUL included: PostgreSQL refuses
 * it in text), and UTF-16 surrogates that are not part of a pair (JSON.parse makes them out of `"\ud800"`
 * escapes; validator's isEmail throws on them, and they cannot be encoded as UTF-8).
 */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const MALFORMED = /[\u0000-\u0008\u000B\u000C\u000E-\u001F]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Every C0 control and DEL: in a header (a key, an id), even a tab or a line break has no business. */
// eslint-disable-next-line no-control-regex -- as above
const CONTROL = /[\u0000-\u001F\u007F]/;

const codePoint = (char: string): string => `U+${char.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;

/**
 * What makes `text` not well-formed, in words that never quote it (it may be hostile, or unprintable):
 * `holds a control character (U+0000)`, `holds a lone surrogate (U+D800)`, `is longer than 4096
 * characters`; undefined when it is well-formed. `lineBreaks: false` (for a header) refuses tab, line
 * feed, carriage return and DEL too.
 */
export function textProblem(text: string, { lineBreaks = true }: { lineBreaks?: boolean } = {}): string | undefined {
  if (text.length > MAX_TEXT_LENGTH) return `is longer than ${MAX_TEXT_LENGTH} characters`;
  const found = MALFORMED.exec(text) ?? (lineBreaks ? null : CONTROL.exec(text));
  if (!found) return undefined;
  const char = found[0];
  return char >= '\uD800' && char <= '\uDFFF'
    ? `holds a lone surrogate (${codePoint(char)})`
    : `holds a control character (${codePoint(char)})`;
}

/** Where in a JSON value text is not well-formed: the dotted path of the field (array items by index), and whether a key is at fault. */
export interface TextFault {
  /** `metadata.external_id`, `owners.0.name`; '' for the value itself (a bare string, or a key at the top level). */
  field: string;
  /** A field name (an object key) under `field`, rather than the value at `field`, is at fault. */
  inKey: boolean;
  /** textProblem's words. */
  problem: string;
}

/**
 * The first string or object key in a parsed JSON value that is not well-formed (textProblem), or
 * undefined. Iterative, so a deeply nested value cannot overflow the stack; each node is visited once.
 */
export function findMalformedText(value: unknown, root = ''): TextFault | undefined {
  const stack: Array<[unknown, string]> = [[value, root]];
  const join = (parent: string, key: string) => (parent ? `${parent}.${key}` : key);
  while (stack.length) {
    const [node, path] = stack.pop() as [unknown, string];
    if (typeof node === 'string') {
      const problem = textProblem(node);
      if (problem) return { field: path, inKey: false, problem };
      continue;
    }
    if (node === null || typeof node !== 'object') continue;
    const keys = Object.keys(node);
    for (const key of keys) {
      const problem = textProblem(key);
      if (problem) return { field: path, inKey: true, problem };
    }
    // Reversed onto the stack, so fields are reported in the order they were sent.
    for (let i = keys.length - 1; i >= 0; i--) stack.push([(node as Record<string, unknown>)[keys[i]], join(path, keys[i])]);
  }
  return undefined;
}

/**
 * A sentence for a TextFault: what is wrong and where, never the text itself. `noun` names what holds
 * the text: `field metadata.external_id holds a control character (U+0000)`, `a field name in
 * metadata holds a lone surrogate (U+DC00)`, `query parameter cursor is longer than 4096 characters`.
 */
export function describeTextFault(fault: TextFault, noun = 'field'): string {
  if (fault.inKey) return fault.field ? `a ${noun} name in ${fault.field} ${fault.problem}` : `a ${noun} name ${fault.problem}`;
  return fault.field ? `${noun} ${fault.field} ${fault.problem}` : `the value ${fault.problem}`;
}
