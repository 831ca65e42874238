import type { CallOptions, HttpTransport } from '../http-transport';
import { ListedResource } from '../paginator';
import type { ListPixInflowsQuery, PixInflow, PixInflowsPage } from '../sdk.types';

const DEFAULT_PAGE_SIZE = 100;

/** Pix inflows, newest first, filtered by status. */
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
}
