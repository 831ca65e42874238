import { Injectable } from '@nestjs/common';
import { CURSOR_REFUSED, fail, listScope, ListPixKeysQuery, ok, pageOf, pageRequestOf, RequestReply, Topics } from '@partner/contracts';
import { toView } from './get-pix-key.use-case';
import { PixKeyRepository } from './pix-key.repository';

/**
 * GET /partner/v1/pix-key: every key the partner asked for, ended ones (failed, canceled) included, newest
 * first, each as GET .../{document} answers it; filtered by state and user. The cursor is bound to the
 * partner and the filters (listScope): one issued for another listing is refused.
 */
@Injectable()
export class ListPixKeysUseCase {
  constructor(private readonly pixKeys: PixKeyRepository) {}

  async execute(query: ListPixKeysQuery): Promise<RequestReply<typeof Topics.PixKeysList>> {
    const scope = listScope('pix_keys', query.partner_id, [query.status, query.document]);
    const page = pageRequestOf(query, scope, 'uuid');
    if (!page) return fail('invalid_request', CURSOR_REFUSED, 'cursor');
    const rows = await this.pixKeys.list(query.partner_id, { equals: { state: query.status, document: query.document } }, page);
    const { items, next_cursor } = pageOf(rows, page, scope, (k) => ({ atMs: k.createdAt.getTime(), id: k.id }), toView);
    return ok({ pix_keys: items, next_cursor });
  }
}
