import { requestErrorCodeOf, RequestReply, RequestResult, RequestTopic } from '@partner/contracts';

/**
 * A reply that is not what its topic's contract says: a refusal whose code the topic does not name (or
 * no code, no message), or no `ok` at all. Only a service of ours can send one, so it is a bug of ours,
 * never the caller's fault: the gateway logs it and answers 500 internal_error.
 */
export class MalformedReplyError extends Error {
  constructor(
    readonly topic: string,
    reply: unknown,
  ) {
    super(`Malformed reply on ${topic}: ${JSON.stringify(reply)?.slice(0, 300)}`);
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A reply read off the wire (Kafka or a direct query), as its topic's contract types it. A refusal's code
 * is recognised in the topic's list (requestErrorCodeOf), never taken on trust, so the gateway's status
 * table stays total with no fallback; anything else is a MalformedReplyError.
 */
export function checkedReply<T extends RequestTopic>(topic: T, reply: unknown): RequestReply<T> {
  // The data is the service's result, an interface (no class to validate it with): trusted, as from our own code.
  if (isRecord(reply) && reply.ok === true) return { ok: true, data: reply.data as RequestResult<T> };
  if (isRecord(reply) && reply.ok === false && isRecord(reply.error)) {
    const { code, message, field, id, retry_after_seconds: retryAfter } = reply.error;
    const known = requestErrorCodeOf(topic, code);
    const optionalText = (value: unknown) => value === undefined || typeof value === 'string';
    const optionalSeconds = retryAfter === undefined || (Number.isSafeInteger(retryAfter) && (retryAfter as number) > 0);
    if (known !== undefined && typeof message === 'string' && optionalText(field) && optionalText(id) && optionalSeconds) {
      const extra = {
        ...(typeof field === 'string' ? { field } : {}),
        ...(typeof id === 'string' ? { id } : {}),
        ...(typeof retryAfter === 'number' ? { retry_after_seconds: retryAfter } : {}),
      };
      return { ok: false, error: { code: known, message, ...extra } };
    }
  }
  throw new MalformedReplyError(topic, reply);
}
