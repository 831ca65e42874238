/**
 * Waits for an asynchronous outcome by asking again until it holds or the deadline passes; the
 * failure names what was awaited and the last value seen. Tests never sleep a fixed time.
 */
export async function pollUntil<T>(
  description: string,
  probe: () => Promise<T>,
  accept: (value: T) => boolean,
  { timeoutMs = 20_000, intervalMs = 100 }: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: T | undefined;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      last = await probe();
      if (accept(last)) return last;
    } catch (error) {
      lastError = error;
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  const seen = lastError instanceof Error ? lastError.message : JSON.stringify(last);
  throw new Error(`Timed out after ${timeoutMs} ms waiting for ${description}; last seen: ${seen}`);
}
