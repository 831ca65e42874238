import { redactSecrets } from './redact-url';

/**
 * What logs, span attributes and the audit log must never show (docs/operations/observability.md: "Personal data"): a
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

/** Any run of 8 or more digits: what a caller sends as a document need not be a valid one (12 digits hold a CPF). */
const LONG_NUMBER = /\d{8,}/g;

/**
 * Text a caller chose freely where an identifier goes (a URL, a path parameter): masked as maskIdentifiers
 * does, and every long run of digits with it, whatever touches it.
 */
export function maskCallerText(text: string): string {
  return maskIdentifiers(text).replace(LONG_NUMBER, MASKED);
}

/**
 * A request URL as it may be logged: percent-decoded first (so `%2E`-spelled documents are caught),
 * then masked, and every long run of digits with it. A URL that is not valid percent-encoding is masked as it came.
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
  return maskCallerText(decoded);
}

/** A logged or recorded text: identifiers masked, secrets of URLs hidden (redactSecrets). */
export function maskText(text: string): string {
  return maskIdentifiers(redactSecrets(text));
}

/** How deep a logged object is masked: deeper than anything this project logs, bounded against cycles. */
const MAX_DEPTH = 6;

/**
 * The arguments of a pino call with every string masked (maskText): the message, interpolation values, and every
 * string inside a merge object, its errors included (their message, stack and own fields, such as
 * PostgreSQL's `detail`, which names the values of a violated key). The caller's objects are never
 * changed: what needs masking is copied, what does not is handed back as it is.
 */
export function maskLogArguments(args: unknown[]): unknown[] {
  return args.map((arg) => maskValue(arg, 0));
}

function maskValue(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return maskText(value);
  if (value === null || typeof value !== 'object' || depth >= MAX_DEPTH) return value;
  if (value instanceof Error) return maskedError(value, depth);
  if (Array.isArray(value)) {
    const masked = value.map((item) => maskValue(item, depth + 1));
    return masked.some((item, i) => item !== value[i]) ? masked : value;
  }
  // Plain records only: class instances (a Buffer, a Date) are left to their serializers.
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) return value;
  let copy: Record<string, unknown> | undefined;
  for (const [key, field] of Object.entries(value)) {
    const masked = maskValue(field, depth + 1);
    if (masked !== field) (copy ??= { ...(value as Record<string, unknown>) })[key] = masked;
  }
  return copy ?? value;
}

function maskedError(error: Error, depth: number): Error {
  const message = maskText(error.message);
  const stack = error.stack === undefined ? undefined : maskText(error.stack);
  const fields: Record<string, unknown> = {};
  let changed = message !== error.message || stack !== error.stack;
  for (const [key, field] of Object.entries(error)) {
    fields[key] = maskValue(field, depth + 1);
    changed ||= fields[key] !== field;
  }
  const cause = error.cause === undefined ? undefined : maskValue(error.cause, depth + 1);
  changed ||= cause !== error.cause;
  if (!changed) return error;
  const copy = Object.assign(new Error(message), fields);
  copy.name = error.name;
  copy.stack = stack;
  if (cause !== undefined) copy.cause = cause;
  return copy;
}
