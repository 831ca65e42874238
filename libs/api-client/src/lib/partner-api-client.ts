import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { paths } from '../generated/partner-api';

/** A client of the Partner API, typed by its OpenAPI document: paths, bodies, query parameters and every answer. */
export type PartnerApiClient = Client<paths>;

export interface PartnerApiClientOptions extends Omit<ClientOptions, 'headers'> {
  /** The gateway's address, e.g. http://127.0.0.1:3000. */
  baseUrl: string;
  /** Sent as X-API-Key: the partner routes. */
  apiKey?: string;
  /** Sent as X-Admin-Key: sandbox partner creation. */
  adminKey?: string;
  headers?: Record<string, string>;
}

/**
 * A typed client of the Partner API (openapi-fetch over the types openapi-typescript generates from
 * docs/openapi.json at build time). Each call answers `{data, error, response}`: `data` when the status
 * is 2xx, `error` (the family's error body) otherwise, typed by status.
 *
 *   const api = createPartnerApiClient({ baseUrl: 'http://127.0.0.1:3000', apiKey });
 *   const { data, error } = await api.POST('/partner/v1/withdrawals/usdt', { body: { ... } });
 */
export function createPartnerApiClient({ apiKey, adminKey, headers, ...options }: PartnerApiClientOptions): PartnerApiClient {
  return createClient<paths>({
    ...options,
    headers: { ...(apiKey ? { 'x-api-key': apiKey } : {}), ...(adminKey ? { 'x-admin-key': adminKey } : {}), ...headers },
  });
}
