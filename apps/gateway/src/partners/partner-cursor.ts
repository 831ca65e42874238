import { PartnerPosition } from '../auth/partner.repository';

/**
 * The opaque cursor of GET /admin/v1/partners: the creation time (ms) and id of the last partner of a page,
 * versioned and base64url-encoded, so its form can change without breaking the contract.
 */
export function encodePartnerCursor({ createdAt, id }: PartnerPosition): string {
  return Buffer.from(`pa1:${createdAt.getTime()}:${id}`).toString('base64url');
}

/** The position to continue below, or null when the cursor is not one this gateway issued. */
export function decodePartnerCursor(cursor: string): PartnerPosition | null {
  const match = /^pa1:(\d{1,15}):([0-9a-f-]{36})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  return match ? { createdAt: new Date(Number(match[1])), id: match[2] } : null;
}
