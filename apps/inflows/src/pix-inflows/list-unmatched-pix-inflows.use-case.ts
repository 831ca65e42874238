import { Injectable } from '@nestjs/common';
import { DEFAULT_OPERATOR_PAGE, fail, ListUnmatchedPixInflowsQuery, ok, RequestReply, Topics } from '@partner/contracts';
import { decodeUnmatchedCursor, encodeUnmatchedCursor } from './unmatched-cursor';
import { toUnmatchedView, UnmatchedPixInflowRepository } from './unmatched-pix-inflow.repository';

/** inflows.query.list-unmatched.v1 (GET /admin/v1/unmatched-pix-inflows): the inflows kept aside, newest first. */
@Injectable()
export class ListUnmatchedPixInflowsUseCase {
  constructor(private readonly unmatched: UnmatchedPixInflowRepository) {}

  async execute(query: ListUnmatchedPixInflowsQuery): Promise<RequestReply<typeof Topics.InflowsListUnmatched>> {
    const beforeId = query.cursor === undefined ? undefined : decodeUnmatchedCursor(query.cursor);
    if (beforeId === null) return fail('invalid_request', 'cursor must be the next_cursor of a previous page', 'cursor');
    const limit = query.limit ?? DEFAULT_OPERATOR_PAGE;
    const rows = await this.unmatched.list({ beforeId, take: limit + 1 });
    const page = rows.slice(0, limit);
    return ok({
      unmatched_pix_inflows: page.map(toUnmatchedView),
      next_cursor: rows.length > limit ? encodeUnmatchedCursor(page[page.length - 1].id) : null,
    });
  }
}
