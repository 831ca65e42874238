import { maskIdentifiers } from '@partner/tracing';

/** At most this much of a provider's text is kept as a notification's last_error. */
export const MAX_ERROR_TEXT = 300;

/**
 * An error text fit for last_error and the log: every identifier masked (CPF, CNPJ, phone, e-mail: a provider
 * quotes the recipient in its refusals), on one line, bounded.
 */
export function errorText(text: string): string {
  const line = maskIdentifiers(text).replace(/\s+/g, ' ').trim();
  return line.length > MAX_ERROR_TEXT ? `${line.slice(0, MAX_ERROR_TEXT - 1)}…` : line;
}
