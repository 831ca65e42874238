/**
 * A JSON object (not an array, not null) whose JSON text is at most `maxBytes` bytes in UTF-8: for
 * free-form fields such as a customer's metadata, stored and echoed as given, so bounded in size.
 */
export function isJsonObjectWithin(value: unknown, maxBytes: number): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  return Buffer.byteLength(JSON.stringify(value), 'utf8') <= maxBytes;
}
