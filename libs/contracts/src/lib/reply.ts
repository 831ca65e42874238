import type { ErrorDetail } from '@partner/validation';
import type { ErrorCode } from './error-codes';

/**
 * A failure as a reply carries it: an ErrorDetail whose code is one the contract names, and, for a refusal
 * because the resource exists already (a business customer's `already_exists`), that resource's `id`: the
 * caller's own, so a retry whose first answer was lost learns what it registered.
 */
export type ReplyError<C extends ErrorCode = ErrorCode> = ErrorDetail<C> & {
  id?: string;
  /** A refusal that lifts by itself (a quota's window): whole seconds until it may, the answer's Retry-After. */
  retry_after_seconds?: number;
};

/**
 * What every request-reply handler answers. Domain outcomes (user_not_found, insufficient_funds...)
 * are values, not exceptions: they are part of the contract and the gateway maps them in one place.
 * `C`: the codes a failure may carry (a topic's own, see RequestReply).
 */
export type Reply<T, C extends ErrorCode = ErrorCode> = { ok: true; data: T } | { ok: false; error: ReplyError<C> };

export const ok = <T>(data: T): Reply<T, never> => ({ ok: true, data });
/** A refusal; its code must be an ErrorCode, and the topic's own where the reply is typed by its topic. */
export const fail = <C extends ErrorCode>(code: C, message: string, field?: string): Reply<never, C> => ({
  ok: false,
  error: field ? { code, message, field } : { code, message },
});
