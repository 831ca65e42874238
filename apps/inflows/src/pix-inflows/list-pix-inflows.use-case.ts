import { Injectable } from '@nestjs/common';
import { fail, ListPixInflowsQuery, ListPixInflowsResult, MAX_PIX_IN_PAGE, ok, RequestReply, Topics } from '@partner/contracts';
import { decodeCursor, encodeCursor } from './inflow-cursor';
import { toPixInflow } from './pix-in-event';
import { PixInflowRepository } from './pix-inflow.repository';

/**
 * GET /partner/v1/pix-in: the partner's inflows, newest first. Without limit and cursor the answer is
 * the plain `{pix_in}` of docs/api.md "Pix inflows" (at most MAX_PIX_IN_PAGE, with a next_cursor only if more exist); with either,
 * it also carries next_cursor, null on the last page.
 */
@Injectable()
export class ListPixInflowsUseCase {
  constructor(private readonly inflows: PixInflowRepository) {}

  async execute(query: ListPixInflowsQuery): Promise<RequestReply<typeof Topics.InflowsList>> {
    let beforeId: bigint | undefined;
    if (query.cursor !== undefined) {
      const decoded = decodeCursor(query.cursor);
      if (decoded === null) return fail('invalid_request', 'cursor must be the next_cursor of a previous page', 'cursor');
      beforeId = decoded;
    }
    const limit = query.limit ?? MAX_PIX_IN_PAGE;
    // One more than the page tells whether another page follows without a count query.
    const rows = await this.inflows.list(query.partner_id, { status: query.status, beforeId, take: limit + 1 });
    const page = rows.slice(0, limit);
    const nextCursor = rows.length > limit ? encodeCursor(page[page.length - 1].id) : null;
    const paged = query.limit !== undefined || query.cursor !== undefined;
    const result: ListPixInflowsResult = { pix_in: page.map(toPixInflow) };
    if (paged || nextCursor !== null) result.next_cursor = nextCursor;
    return ok(result);
  }
}
