/** Unix seconds of a timestamp, as the HTTP API writes every time (docs/api.md: timestamps are Unix seconds). */
export const unixSeconds = (at: Date | string): number => Math.floor(new Date(at).getTime() / 1000);

/** The same for a timestamp that may be absent. */
export const unixSecondsOrNull = (at: Date | string | null): number | null => (at === null ? null : unixSeconds(at));
