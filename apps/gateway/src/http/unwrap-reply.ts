import { Reply } from '@partner/contracts';
import { apiErrorOf } from './api-error';

/** A service's reply as a value, or its failure as the ApiError the filter renders. */
export function unwrap<T>(reply: Reply<T>): T {
  if (reply.ok) return reply.data;
  throw apiErrorOf(reply.error);
}
