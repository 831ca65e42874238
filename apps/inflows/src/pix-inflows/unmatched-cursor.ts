/** The opaque cursor of GET /admin/v1/unmatched-pix-inflows: the id of the last inflow of a page, versioned, base64url. */
export function encodeUnmatchedCursor(lastId: bigint): string {
  return Buffer.from(`um1:${lastId}`).toString('base64url');
}

/** The id to continue below, or null when the cursor is not one this service issued. */
export function decodeUnmatchedCursor(cursor: string): bigint | null {
  const match = /^um1:(\d{1,19})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  return match ? BigInt(match[1]) : null;
}
