/**
 * What logs, span attributes and the audit log must never show (docs/operations.md: "Personal data"): a
 * CPF (11 digits, also written `123.456.789-09`), a CNPJ (14 digits or the alphanumeric form, also written
 * `12.345.678/0001-95`), which is also what a Pix key is here, a phone in E.164 (`+5511987654321`) and an
 * e-mail address. A document must stand alone (no letter or digit right before or after it), so UUIDs,
 * end-to-end ids, timestamps and amounts of other lengths are left as they are. Deliberately broad
 * otherwise: any 11-digit number is masked, whether or not its check digits are right, and any
 * `+` followed by 8 to 15 digits. Everything goes through this one expression (maskIdentifiers): the logs
 * (libs/platform logging), the spans (MaskingSpanProcessor) and the gateway's audit entries.
 */
const DOCUMENT = String.raw`(?<![\p{L}\p{N}])(?:\d{3}\.?\d{3}\.?\d{3}-?\d{2}|[0-9A-Z]{2}\.?[0-9A-Z]{3}\.?[0-9A-Z]{3}\/?[0-9A-Z]{4}-?\d{2})(?![\p{L}\p{N}])`;
const PHONE = String.raw`(?<![\p{L}\p{N}+])\+\d{8,15}(?!\d)`;
/**
 * An e-mail as validators accept it (class-validator's IsEmail: a dotted domain ending in a label that
 * starts with a letter, so `pino@9.1.0` is not one), UTF-8 local parts included. It starts only where a
 * local part can start (the lookbehind), so a long run without `@` costs one scan, not one per character.
 */
const LOCAL = String.raw`\p{L}\p{N}.!#$%'*+^_\x60{|}~-`;
const EMAIL = String.raw`(?<![${LOCAL}])[${LOCAL}]+@(?:[\p{L}\p{N}-]+\.)+\p{L}[\p{L}\p{N}-]*`;
const IDENTIFIER = new RegExp(`${DOCUMENT}|${PHONE}|${EMAIL}`, 'gu');

/** What a masked identifier reads as in a log line. */
export const MASKED = '[masked]';

/** `text` with every CPF-, CNPJ-, phone- or e-mail-shaped token replaced by MASKED. */
export function maskIdentifiers(text: string): string {
  // The common case (nothing of the kind) costs one scan and no allocation.
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
