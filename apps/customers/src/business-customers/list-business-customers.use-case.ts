import { Injectable } from '@nestjs/common';
import {
  CURSOR_REFUSED,
  fail,
  listScope,
  ListBusinessCustomersQuery,
  ok,
  pageOf,
  pageRequestOf,
  RequestReply,
  Topics,
} from '@partner/contracts';
import { toView } from './get-business-customer.use-case';
import { CustomerRepository } from './customer.repository';

/**
 * GET /partner/v1/customers/business: the partner's business customers, newest first, each as GET
 * .../{id} answers it; filtered by CNPJ and external_id. The cursor is bound to the partner and the
 * filters (listScope): one issued for another listing is refused.
 */
@Injectable()
export class ListBusinessCustomersUseCase {
  constructor(private readonly customers: CustomerRepository) {}

  async execute(query: ListBusinessCustomersQuery): Promise<RequestReply<typeof Topics.CustomersList>> {
    const scope = listScope('business_customers', query.partner_id, [query.cnpj, query.external_id]);
    const page = pageRequestOf(query, scope, 'uuid');
    if (!page) return fail('invalid_request', CURSOR_REFUSED, 'cursor');
    const rows = await this.customers.list(query.partner_id, { equals: { cnpj: query.cnpj, external_id: query.external_id } }, page);
    const { items, next_cursor } = pageOf(rows, page, scope, (c) => ({ atMs: c.createdAt.getTime(), id: c.id }), toView);
    return ok({ customers: items, next_cursor });
  }
}
