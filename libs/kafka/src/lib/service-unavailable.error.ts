/** Raised when a service does not answer in time, its handler failed, or it cannot be reached. */
export class ServiceUnavailableError extends Error {
  constructor(
    readonly topic: string,
    cause?: unknown,
  ) {
    super(`No reply on ${topic}${cause instanceof Error ? `: ${cause.message}` : typeof cause === 'string' ? `: ${cause}` : ''}`);
  }
}
