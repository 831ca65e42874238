/**
 * The opaque cursor of the operator's BRL ledger: the id of the last entry of a page, versioned and
 * base64url-encoded, so its form can change without breaking the contract.
 */
export function encodeBrlLedgerCursor(lastId: number): string {
  return Buffer.from(`bl1:${lastId}`).toString('base64url');
}

/** The id to continue below, or null when the cursor is not one this service issued. */
export function decodeBrlLedgerCursor(cursor: string): bigint | null {
  const match = /^bl1:(\d{1,19})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  return match ? BigInt(match[1]) : null;
}
