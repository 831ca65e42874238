import { createHash } from 'node:crypto';
import { ApiPropertyOptional } from '../api-documentation';
import { Transform } from 'class-transformer';
import { IsInt, IsOptional, Max, Min, registerDecorator, ValidationOptions } from 'class-validator';
import { integerString } from '../query-transforms';

/** Page sizes of every paged list (the events feed and the resource lists): `limit` 1-1000, 100 when absent. */
export const DEFAULT_PAGE = 100;
export const MAX_PAGE = 1000;
const LIMIT_MESSAGE = `limit must be an integer from 1 to ${MAX_PAGE}`;

/** The `limit` query parameter of a paged list: a decimal string at HTTP, a number on Kafka, 1 to MAX_PAGE. */
export function IsPageLimit(): PropertyDecorator {
  return (target, propertyName) => {
    Transform(integerString)(target, propertyName);
    IsInt({ message: LIMIT_MESSAGE })(target, propertyName);
    Min(1, { message: LIMIT_MESSAGE })(target, propertyName);
    Max(MAX_PAGE, { message: LIMIT_MESSAGE })(target, propertyName);
  };
}

/**
 * Where a page of a list ended: the last item's creation time (milliseconds, the columns' precision) and
 * id, the list's order being (created_at, id) descending. The next page is what comes strictly after it.
 */
export interface ListPosition {
  atMs: number;
  /** A withdrawal's decimal id or a UUID. */
  id: string;
}

/**
 * The cursor of a resource list: like the feed's (base64url of canonical text, opaque to partners, so
 * its form may change), a position plus the scope it was issued for: a digest of the list, the partner
 * and the filters. A cursor used by another partner or with other filters is refused as one this API
 * did not issue, so it can never resume a listing it was not made for.
 */
export const encodeListCursor = (position: ListPosition, scope: string): string =>
  Buffer.from(`${position.atMs}:${position.id}:${scope}`).toString('base64url');

interface DecodedListCursor extends ListPosition {
  scope: string;
}

const CURSOR_TEXT = /^(0|[1-9]\d{0,14}):([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[1-9]\d{0,15}):([0-9a-f]{16})$/;

/** The position and scope of a cursor, or undefined when it is not one a list issued. */
export function decodeListCursor(cursor: unknown): DecodedListCursor | undefined {
  if (typeof cursor !== 'string' || !/^[A-Za-z0-9_-]{1,120}$/.test(cursor)) return undefined;
  const match = CURSOR_TEXT.exec(Buffer.from(cursor, 'base64url').toString());
  // Only the canonical form: trailing bits would be a second spelling of one cursor.
  if (!match) return undefined;
  const position = { atMs: Number(match[1]), id: match[2] };
  return encodeListCursor(position, match[3]) === cursor ? { ...position, scope: match[3] } : undefined;
}

/** The scope of a listing: 64 bits of SHA-256 over the list's name, the partner and its filters (absent ones as null). */
export function listScope(list: string, partnerId: string, filters: readonly (string | number | undefined)[]): string {
  return createHash('sha256')
    .update(JSON.stringify([list, partnerId, ...filters.map((f) => f ?? null)]))
    .digest('hex')
    .slice(0, 16);
}

/** A `cursor` query parameter: one `decode` recognizes (the feed's, or a list's), else refused with `message`. */
export function IsCursorOf(decode: (cursor: unknown) => unknown, message: string, options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isCursor',
      target: target.constructor,
      propertyName: propertyName as string,
      options: { message, ...options },
      validator: { validate: (value: unknown) => decode(value) !== undefined },
    });
}

/** Why a list refuses a cursor: it is not one a list issued, or was issued for another listing. */
export const CURSOR_REFUSED = 'cursor must be the next_cursor of a previous page of this list, with the same filters';

/** A list's `cursor`: a next_cursor some list issued (which listing it belongs to is the service's check). */
export const IsListCursor = (): PropertyDecorator => IsCursorOf(decodeListCursor, CURSOR_REFUSED);

/** What a list's use case needs of its query: the page size and where to resume, once its cursor is checked. */
export interface PageRequest {
  limit: number;
  /** Strictly after this position; undefined for the first page. */
  after?: ListPosition;
}

/**
 * The page asked for, or undefined when the cursor was issued for another listing (another list,
 * partner or filters): the service refuses it like a cursor it never issued.
 */
export function pageRequestOf(query: { limit?: number; cursor?: string }, scope: string, ids: 'integer' | 'uuid'): PageRequest | undefined {
  const limit = query.limit ?? DEFAULT_PAGE;
  if (query.cursor === undefined) return { limit };
  const decoded = decodeListCursor(query.cursor);
  if (decoded === undefined || decoded.scope !== scope || /^\d+$/.test(decoded.id) !== (ids === 'integer')) return undefined;
  return { limit, after: { atMs: decoded.atMs, id: decoded.id } };
}

/** One page of items read with one more than asked (`limit + 1` rows): the page, and the cursor to the next one (null on the last). */
export function pageOf<R, T>(
  rows: readonly R[],
  page: PageRequest,
  scope: string,
  positionOf: (row: R) => ListPosition,
  view: (row: R) => T,
): { items: T[]; next_cursor: string | null } {
  const kept = rows.slice(0, page.limit);
  const next_cursor = rows.length > page.limit ? encodeListCursor(positionOf(kept[kept.length - 1]), scope) : null;
  return { items: kept.map(view), next_cursor };
}

/**
 * The paging parameters every resource list takes (docs/api.md: "Lists"); each list's request class adds
 * its filters. Unknown parameters are refused, as on the events feed.
 */
export class PagedListRequest {
  @ApiPropertyOptional({ type: 'integer', description: 'Page size', minimum: 1, maximum: MAX_PAGE, default: DEFAULT_PAGE })
  @IsOptional()
  @IsPageLimit()
  limit?: number;

  @ApiPropertyOptional({ description: 'Resume after the items already seen: the next_cursor of the previous page, with the same filters' })
  @IsOptional()
  @IsListCursor()
  cursor?: string;
}

/** The next_cursor of a list's answer, as the OpenAPI document describes it. */
export const NEXT_CURSOR_PROPERTY = {
  type: String,
  nullable: true,
  description: 'Opaque: pass it as cursor (with the same filters) for the next page; null on the last page',
  example: 'MTc5NTMxNTI4NTAwMDo0MjphMWIyYzNkNGU1ZjYwNzE4',
} as const;
