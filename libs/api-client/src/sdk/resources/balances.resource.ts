import type { CallOptions, HttpTransport } from '../http-transport';
import type { Balance } from '../sdk.types';

export class BalancesResource {
  constructor(private readonly http: HttpTransport) {}

  /** The user's USDT balance in micros: available, and held by withdrawals in flight. */
  get(document: string, options?: CallOptions): Promise<Balance> {
    return this.http.get(`/partner/v1/users/${encodeURIComponent(document)}/balance`, undefined, options);
  }
}
