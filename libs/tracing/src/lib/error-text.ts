import { describeCallError } from '@partner/runtime';
import { maskIdentifiers } from './mask-identifiers';

/** At most this much of an error's text is kept (a queue row's last error, a log line). */
export const MAX_ERROR_TEXT = 300;

/**
 * The one way a failure becomes text to store or log (a queue row's last error, a refusal's reason): an Error
 * as its name, message and system code (describeCallError), every identifier masked (CPF, CNPJ, phone,
 * e-mail: a counterparty quotes them in its refusals), on one line, bounded.
 */
export function errorText(error: unknown): string {
  const line = maskIdentifiers(typeof error === 'string' ? error : describeCallError(error))
    .replace(/\s+/g, ' ')
    .trim();
  return line.length > MAX_ERROR_TEXT ? `${line.slice(0, MAX_ERROR_TEXT - 1)}…` : line;
}
