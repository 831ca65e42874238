import { randomUUID } from 'node:crypto';
import type { CallOptions, HttpTransport } from '../http-transport';
import { ListedResource } from '../paginator';
import type { CreateWithdrawalRequest, CreateWithdrawalResult, ListWithdrawalsQuery, Withdrawal } from '../sdk.types';

/** USDT withdrawals; `list`/`listPage` newest first, filtered by document, state and creation time. */
export class WithdrawalsResource extends ListedResource<Withdrawal, ListWithdrawalsQuery, 'withdrawals'> {
  constructor(http: HttpTransport) {
    super(http, '/partner/v1/withdrawals/usdt', 'withdrawals');
  }

  /**
   * Requests a USDT withdrawal. Without `idempotency_key` one is made (a UUID) for this call and sent on
   * every retry of it, so a retried create never makes two; pass your own to be safe across restarts too.
   */
  async create(request: CreateWithdrawalRequest, options?: CallOptions): Promise<CreateWithdrawalResult> {
    const body = { ...request, idempotency_key: request.idempotency_key ?? randomUUID() };
    const answer = await this.http.send<{ id: number }>({ method: 'POST', path: this.path, body, retryability: 'idempotent' }, options);
    return { id: answer.body.id, idempotency_key: body.idempotency_key };
  }

  get(id: number, options?: CallOptions): Promise<Withdrawal> {
    return this.http.get(`${this.path}/${encodeURIComponent(id)}`, undefined, options);
  }
}
