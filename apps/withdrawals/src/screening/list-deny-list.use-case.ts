import { Injectable } from '@nestjs/common';
import { DenyListPage, DenyListQuery } from '@partner/contracts';
import { toDenyListEntryView } from './change-deny-list.use-case';
import { ScreeningRepository } from './screening.repository';

/** A page of the deny list, by address; the cursor is the last address of the page before. */
@Injectable()
export class ListDenyListUseCase {
  constructor(private readonly lists: ScreeningRepository) {}

  async execute(q: DenyListQuery): Promise<DenyListPage> {
    const limit = q.limit ?? 100;
    const rows = await this.lists.denyPage(q.cursor?.toLowerCase() ?? '', limit + 1);
    const page = rows.slice(0, limit);
    return { entries: page.map(toDenyListEntryView), next_cursor: rows.length > limit ? page[page.length - 1].address : null };
  }
}
