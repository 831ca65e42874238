import type { ErrorDetail } from '@partner/validation';

/**
 * What every request-reply handler answers. Domain outcomes (user_not_found, insufficient_funds...)
 * are values, not exceptions: they are part of the contract and the gateway maps them in one place.
 */
export type Reply<T> = { ok: true; data: T } | { ok: false; error: ErrorDetail };

export const ok = <T>(data: T): Reply<T> => ({ ok: true, data });
export const fail = <T = never>(code: string, message: string, field?: string): Reply<T> => ({
  ok: false,
  error: field ? { code, message, field } : { code, message },
});
