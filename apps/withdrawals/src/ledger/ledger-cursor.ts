/**
 * The opaque cursors of the operator's listings: the last row of a page (a ledger entry's id, a user's CPF),
 * versioned and base64url-encoded, so their form can change without breaking the contract.
 */
export const encodeLedgerCursor = (lastId: number): string => Buffer.from(`le1:${lastId}`).toString('base64url');

/** The entry id to continue below, or null when the cursor is not one this service issued. */
export function decodeLedgerCursor(cursor: string): number | null {
  const match = /^le1:([1-9]\d{0,15})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  return match ? Number(match[1]) : null;
}

export const encodeUserCursor = (lastDocument: string): string => Buffer.from(`us1:${lastDocument}`).toString('base64url');

/** The CPF to continue after, or null when the cursor is not one this service issued. */
export function decodeUserCursor(cursor: string): string | null {
  const match = /^us1:(\d{11})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  return match ? match[1] : null;
}
