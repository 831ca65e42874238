import { Injectable } from '@nestjs/common';
import { fail, GetBusinessCustomerQuery, GetBusinessCustomerResult, ok, RequestReply, Topics } from '@partner/contracts';
import { Customer, CustomerRepository } from './customer.repository';

/**
 * The customer as GET /partner/v1/customers/business/{id} answers it: the registration exactly as stored,
 * which is the body as the partner sent it (optional fields left out stay out), between its id and its
 * registration time in Unix seconds.
 */
export const toView = (c: Customer): GetBusinessCustomerResult => ({
  id: c.id,
  ...c.body,
  created_at: Math.floor(c.createdAt.getTime() / 1000),
});

/** Reads one of the partner's business customers; another partner's is not_found, exactly like a missing one. */
@Injectable()
export class GetBusinessCustomerUseCase {
  constructor(private readonly customers: CustomerRepository) {}

  async execute(query: GetBusinessCustomerQuery): Promise<RequestReply<typeof Topics.CustomersGet>> {
    const customer = await this.customers.findById(query.partner_id, query.id);
    return customer ? ok(toView(customer)) : fail('not_found', `no business customer ${query.id}`);
  }
}
