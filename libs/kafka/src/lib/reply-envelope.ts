/**
 * Headers of a request that expects a reply: where to send it and how the caller recognises it. `url`,
 * when present, is the caller's direct-reply listener (direct-replies.ts), tried before `topic`.
 */
export const REPLY_HEADERS = { topic: 'reply_topic', correlationId: 'correlation_id', url: 'reply_url' } as const;

/**
 * What a service sends back on the caller's reply topic: the handler's return value, or `err` when the
 * handler threw (its database went away, a bug): the caller cannot know the outcome of such a request.
 */
export type ReplyEnvelope = { response: unknown; err?: undefined } | { err: string; response?: undefined };
