import { Injectable } from '@nestjs/common';
import { DEFAULT_OPERATOR_PAGE, fail, ListMedCasesQuery, ok, RequestReply, Topics } from '@partner/contracts';
import { toMedCaseView } from './med-case-event';
import { MedCaseRepository } from './med-case.repository';

/** The opaque cursor of the MED cases' list: the last case's row id, versioned, base64url. */
export const medCaseCursor = {
  encode: (lastId: bigint): string => Buffer.from(`mc1:${lastId}`).toString('base64url'),
  /** The id to continue below; null when the cursor is not one this service issued. */
  decode: (cursor: string): bigint | null => {
    const id = /^mc1:(\d{1,19})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'))?.[1];
    return id === undefined ? null : BigInt(id);
  },
};

/** inflows.query.list-med-cases.v1: the MED cases, newest first, of a status and a partner when asked (the operator's read). */
@Injectable()
export class ListMedCasesUseCase {
  constructor(private readonly cases: MedCaseRepository) {}

  async execute(query: ListMedCasesQuery): Promise<RequestReply<typeof Topics.InflowsListMedCases>> {
    const beforeId = query.cursor === undefined ? undefined : medCaseCursor.decode(query.cursor);
    if (beforeId === null) return fail('invalid_request', 'cursor must be the next_cursor of a previous page', 'cursor');
    const limit = query.limit ?? DEFAULT_OPERATOR_PAGE;
    const found = await this.cases.list({ status: query.status, partnerId: query.partner_id, beforeId, take: limit + 1 });
    const page = found.slice(0, limit);
    return ok({
      med_cases: page.map(toMedCaseView),
      next_cursor: found.length > limit ? medCaseCursor.encode(page[page.length - 1].id) : null,
    });
  }
}
