import { Injectable } from '@nestjs/common';
import { DEFAULT_OPERATOR_PAGE, OperatorPageRequest } from '@partner/contracts';
import { PartnerRepository } from '../auth/partner.repository';
import { ApiError } from '../http/api-error';
import { decodePartnerCursor, encodePartnerCursor } from './partner-cursor';
import { toPartnerDetail } from './partner-view';
import { AdminPartnerPage } from './partners.dto';

/** A page of partners, newest first; one row more than asked tells whether an older page exists. */
@Injectable()
export class ListPartnersUseCase {
  constructor(private readonly partners: PartnerRepository) {}

  async execute(query: OperatorPageRequest): Promise<AdminPartnerPage> {
    const limit = query.limit ?? DEFAULT_OPERATOR_PAGE;
    const after = query.cursor === undefined ? undefined : decodePartnerCursor(query.cursor);
    if (after === null)
      throw new ApiError(400, { code: 'invalid_request', message: 'cursor must be the next_cursor of a previous page', field: 'cursor' });
    const rows = await this.partners.page(limit + 1, after);
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return {
      partners: page.map(toPartnerDetail),
      next_cursor: rows.length > limit ? encodePartnerCursor({ createdAt: last.created_at, id: last.id }) : null,
    };
  }
}
