/**
 * Why a request got no usable reply; the gateway words its 503 after it (docs/adr/0016):
 * - `timed_out`: no reply within the caller's timeout; the service may still be working on it;
 * - `failed`: the service's handler threw (its database went away, a bug): its transaction rolled back,
 *   or the error came after the commit, so the caller cannot know which;
 * - `unreachable`: the request could not be handed over (no broker, no address, shutting down).
 * In every case the outcome of a command is unknown to the caller, who retries with the same key.
 */
export type UnavailableReason = 'timed_out' | 'failed' | 'unreachable';

/** Raised when a service does not answer in time, its handler failed, or it cannot be reached. */
export class ServiceUnavailableError extends Error {
  constructor(
    readonly topic: string,
    readonly reason: UnavailableReason,
    cause?: unknown,
  ) {
    super(
      `No reply on ${topic} (${reason})${cause instanceof Error ? `: ${cause.message}` : typeof cause === 'string' ? `: ${cause}` : ''}`,
    );
  }
}
