import { Violation } from './dict-document';

/** A refusal as DICT answers it: an RFC 7807 problem of one of the document's error types ("Tratamento de erros"). */
export class Problem extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    readonly title: string,
    readonly detail?: string,
    readonly violations: Violation[] = [],
  ) {
    super(`${type}: ${detail ?? title}`);
  }
}

export const escape = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');

/** `<Name>value</Name>` lines, as the examples lay them out (absent and empty values left out). */
export const lines = (indent: string, pairs: Array<[string, string | undefined]>) =>
  pairs
    .filter((p): p is [string, string] => p[1] !== undefined && p[1] !== '')
    .map(([n, v]) => `${indent}<${n}>${escape(v)}</${n}>`)
    .join('\n');
