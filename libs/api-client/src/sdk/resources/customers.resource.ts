import { randomUUID } from 'node:crypto';
import type { CallOptions, HttpTransport } from '../http-transport';
import { ListedResource } from '../paginator';
import type {
  BusinessCustomer,
  CreateBusinessCustomerOptions,
  CreateBusinessCustomerRequest,
  CreateBusinessCustomerResult,
  ListCustomersQuery,
} from '../sdk.types';

/** Business customers; `list`/`listPage` filtered by CNPJ and metadata.external_id. */
export class CustomersResource extends ListedResource<BusinessCustomer, ListCustomersQuery, 'customers'> {
  constructor(http: HttpTransport) {
    super(http, '/partner/v1/customers/business', 'customers');
  }

  /**
   * Registers a business customer under an Idempotency-Key: `options.idempotencyKey`, else one made (a UUID)
   * for this call and sent on every retry of it, so a retried registration never makes two and answers the
   * same id (`replayed`). Pass your own to be safe across restarts too.
   */
  async createBusiness(
    request: CreateBusinessCustomerRequest,
    options: CreateBusinessCustomerOptions = {},
  ): Promise<CreateBusinessCustomerResult> {
    const { idempotencyKey = randomUUID(), ...call } = options;
    const answer = await this.http.send<{ id: string }>(
      { method: 'POST', path: this.path, body: request, headers: { 'idempotency-key': idempotencyKey }, retryability: 'idempotent' },
      call,
    );
    return { id: answer.body.id, idempotency_key: idempotencyKey, replayed: answer.status === 200 };
  }

  get(id: string, options?: CallOptions): Promise<BusinessCustomer> {
    return this.http.get(`${this.path}/${encodeURIComponent(id)}`, undefined, options);
  }
}
