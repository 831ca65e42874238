/**
 * What logs must never show (docs/api.md: "Request ids"; docs/operations.md: "Logging"): a CPF (11 digits, also written
 * `123.456.789-09`) or a CNPJ (14 digits or the alphanumeric form, also written `12.345.678/0001-95`),
 * which is also what a Pix key is here. A match must stand alone (no letter or digit right before or
 * after it), so UUIDs, end-to-end ids, timestamps and amounts of other lengths are left as they are.
 * Deliberately broad otherwise: any 11-digit number is masked, whether or not its check digits are right.
 */
const IDENTIFIER = /(?<![A-Za-z0-9])(?:\d{3}\.?\d{3}\.?\d{3}-?\d{2}|[0-9A-Z]{2}\.?[0-9A-Z]{3}\.?[0-9A-Z]{3}\/?[0-9A-Z]{4}-?\d{2})(?![A-Za-z0-9])/g;

/** What a masked identifier reads as in a log line. */
export const MASKED = '[masked]';

/** `text` with every CPF- or CNPJ-shaped token replaced by MASKED. */
export function maskIdentifiers(text: string): string {
  // The common case (no run of digits long enough) costs one scan and no allocation.
  IDENTIFIER.lastIndex = 0;
  return IDENTIFIER.test(text) ? text.replace(IDENTIFIER, MASKED) : text;
}

/**
 * A request URL as it may be logged: percent-decoded first (so `%2E`-spelled documents are caught),
 * then masked. A URL that is not valid percent-encoding is masked as it came.
 */
export function maskUrl(url: string): string {
  let decoded = url;
  if (url.includes('%')) {
    try {
      decoded = decodeURIComponent(url);
    } catch {
      decoded = url;
    }
  }
  return maskIdentifiers(decoded);
}

/**
 * The arguments of a pino call with every string masked: the message, interpolation values, and the
 * string fields and error of a merge object (one level deep: that is what this project logs).
 */
export function maskLogArguments(args: unknown[]): unknown[] {
  return args.map((arg) => {
    if (typeof arg === 'string') return maskIdentifiers(arg);
    if (arg instanceof Error) return maskedError(arg);
    if (arg === null || typeof arg !== 'object' || Array.isArray(arg)) return arg;
    let copy: Record<string, unknown> | undefined;
    for (const [key, value] of Object.entries(arg)) {
      const masked = typeof value === 'string' ? maskIdentifiers(value) : value instanceof Error ? maskedError(value) : value;
      if (masked !== value) (copy ??= { ...(arg as Record<string, unknown>) })[key] = masked;
    }
    return copy ?? arg;
  });
}

function maskedError(error: Error): Error {
  const message = maskIdentifiers(error.message);
  const stack = error.stack === undefined ? undefined : maskIdentifiers(error.stack);
  if (message === error.message && stack === error.stack) return error;
  const copy = new Error(message);
  copy.name = error.name;
  copy.stack = stack;
  return copy;
}
