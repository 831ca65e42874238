/**
 * The opaque cursor of GET /partner/v1/pix-in: the id of the last inflow of a page, versioned and
 * base64url-encoded, so its form can change without breaking the contract.
 */
const PREFIX = 'pi1:';

export function encodeCursor(lastId: bigint): string {
  return Buffer.from(`${PREFIX}${lastId}`).toString('base64url');
}

/** The id to continue below, or null when the cursor is not one this service issued. */
export function decodeCursor(cursor: string): bigint | null {
  const match = /^pi1:(\d{1,19})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  return match ? BigInt(match[1]) : null;
}
