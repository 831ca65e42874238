import type { CallOptions, HttpTransport } from '../http-transport';
import { ListedResource } from '../paginator';
import type { BusinessCustomer, CreateBusinessCustomerRequest, CreateBusinessCustomerResult, ListCustomersQuery } from '../sdk.types';

/** Business customers; `list`/`listPage` filtered by CNPJ and metadata.external_id. */
export class CustomersResource extends ListedResource<BusinessCustomer, ListCustomersQuery, 'customers'> {
  constructor(http: HttpTransport) {
    super(http, '/partner/v1/customers/business', 'customers');
  }

  /**
   * Registers a business customer. It takes no idempotency key, so it is retried only on 429 (refused
   * before it was read); after a 503 or a timeout, send it again yourself: 409 `already_exists` then
   * means the first attempt registered it.
   */
  async createBusiness(request: CreateBusinessCustomerRequest, options?: CallOptions): Promise<CreateBusinessCustomerResult> {
    return (
      await this.http.send<CreateBusinessCustomerResult>(
        { method: 'POST', path: this.path, body: request, retryability: 'unsafe' },
        options,
      )
    ).body;
  }

  get(id: string, options?: CallOptions): Promise<BusinessCustomer> {
    return this.http.get(`${this.path}/${encodeURIComponent(id)}`, undefined, options);
  }
}
