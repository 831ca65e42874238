import { HttpTransport } from './http-transport';
import type { RetryOptions } from './retry-policy';
import { BalancesResource } from './resources/balances.resource';
import { LimitsResource } from './resources/limits.resource';
import { AddressesResource } from './resources/addresses.resource';
import { CustomersResource } from './resources/customers.resource';
import { EventsResource } from './resources/events.resource';
import { PixInflowsResource } from './resources/pix-inflows.resource';
import { PixKeysResource } from './resources/pix-keys.resource';
import { WithdrawalsResource } from './resources/withdrawals.resource';

export interface PartnerClientOptions {
  /** The API's address, e.g. https://api.example.com (no trailing path). */
  baseUrl: string;
  /** Your API key, sent as X-API-Key. */
  apiKey: string;
  /** Each attempt's timeout (default 10 s); CallOptions.timeoutMs overrides it per call. */
  timeoutMs?: number;
  /** Retries on 429, 503 and network errors (default 4 attempts, 250 ms doubling to 8 s, with jitter; Retry-After honoured). */
  retry?: RetryOptions;
  /** Extra headers sent on every call. */
  headers?: Record<string, string>;
}

/**
 * The Partner API, one resource per family. Every method takes CallOptions last (timeout, AbortSignal,
 * X-Request-Id, retries) and throws PartnerApiError, PartnerTimeoutError or PartnerNetworkError.
 *
 *   const client = new PartnerClient({ baseUrl: 'https://api.example.com', apiKey: process.env.PARTNER_API_KEY! });
 *   const { id } = await client.withdrawals.create({ document, address, usdtmicros: 1_000_000, fee_choice: 'MEDIUM', network: 'MATIC' });
 */
export class PartnerClient {
  readonly withdrawals: WithdrawalsResource;
  readonly pixKeys: PixKeysResource;
  readonly customers: CustomersResource;
  readonly pixInflows: PixInflowsResource;
  readonly events: EventsResource;
  readonly balances: BalancesResource;
  readonly limits: LimitsResource;
  readonly addresses: AddressesResource;

  constructor(options: PartnerClientOptions) {
    if (!options.baseUrl) throw new TypeError('PartnerClient: baseUrl is required');
    if (!options.apiKey) throw new TypeError('PartnerClient: apiKey is required');
    const http = new HttpTransport(options);
    this.withdrawals = new WithdrawalsResource(http);
    this.pixKeys = new PixKeysResource(http);
    this.customers = new CustomersResource(http);
    this.pixInflows = new PixInflowsResource(http);
    this.events = new EventsResource(http);
    this.balances = new BalancesResource(http);
    this.limits = new LimitsResource(http);
    this.addresses = new AddressesResource(http);
  }
}
