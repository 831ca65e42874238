/** Headers of a request that expects a reply: where to send it and how the caller recognises it. */
export const REPLY_HEADERS = { topic: 'reply_topic', correlationId: 'correlation_id' } as const;

/**
 * What a service sends back on the caller's reply topic: the handler's return value, or `err` when the
 * handler threw (its database went away, a bug): the caller cannot know the outcome of such a request.
 */
export type ReplyEnvelope = { response: unknown; err?: undefined } | { err: string; response?: undefined };
