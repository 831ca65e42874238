import { randomUUID } from 'node:crypto';
import type { CallOptions, HttpTransport } from '../http-transport';
import { ListedResource } from '../paginator';
import type { ListPixInflowsQuery, PixInflow, PixInflowDetail, PixInflowsPage, RefundPixInRequest, RefundPixInResult } from '../sdk.types';

const DEFAULT_PAGE_SIZE = 100;

/** Pix inflows, newest first, filtered by status; one read back with its refunds; refunds of one. */
export class PixInflowsResource extends ListedResource<PixInflow, ListPixInflowsQuery, 'pix_in'> {
  constructor(http: HttpTransport) {
    super(http, '/partner/v1/pix-in', 'pix_in');
  }

  /** `limit` is always sent (default 100): that makes the answer a page with `next_cursor` (without it the API answers up to 1000, unpaged). */
  override async listPage(query: ListPixInflowsQuery = {}, options?: CallOptions): Promise<PixInflowsPage> {
    const page = await this.http.get<{ pix_in: PixInflow[]; next_cursor?: string | null }>(
      this.path,
      { limit: DEFAULT_PAGE_SIZE, ...query },
      options,
    );
    return { pix_in: page.pix_in, next_cursor: page.next_cursor ?? null };
  }

  /** The inflow with what was refunded of it and each refund. */
  get(endToEndId: string, options?: CallOptions): Promise<PixInflowDetail> {
    return this.http.get(`${this.path}/${encodeURIComponent(endToEndId)}`, undefined, options);
  }

  /**
   * Refunds (part of) an inflow to its payer. Without `idempotency_key` one is made (a UUID) for this call and
   * sent on every retry of it, so a retried refund never makes two; pass your own to be safe across restarts too.
   */
  async refund(endToEndId: string, request: RefundPixInRequest, options?: CallOptions): Promise<RefundPixInResult> {
    const body = { ...request, idempotency_key: request.idempotency_key ?? randomUUID() };
    const path = `${this.path}/${encodeURIComponent(endToEndId)}/refunds`;
    const answer = await this.http.send<{ id: number; status: RefundPixInResult['status'] }>(
      { method: 'POST', path, body, retryability: 'idempotent' },
      options,
    );
    return { id: answer.body.id, status: answer.body.status, idempotency_key: body.idempotency_key };
  }
}
