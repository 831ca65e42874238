import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { components, paths } from '../generated/operator-api';

/** A client of the operator API (/admin/v1), typed by its own OpenAPI document (docs/openapi-operator.json). */
export type OperatorApiClient = Client<paths>;

/** The operator document's schemas by name, e.g. `OperatorSchemas['AccountBalance']`. */
export type OperatorSchemas = components['schemas'];

export interface OperatorApiClientOptions extends Omit<ClientOptions, 'headers'> {
  /** The gateway's operator port (ADMIN_PORT), e.g. http://127.0.0.1:3100. */
  baseUrl: string;
  /** Sent as X-Admin-Key. */
  adminKey: string;
  headers?: Record<string, string>;
}

/** A typed client of the operator API (the CLI's `admin` commands use it); answers as createPartnerApiClient's. */
export function createOperatorApiClient({ adminKey, headers, ...options }: OperatorApiClientOptions): OperatorApiClient {
  return createClient<paths>({ ...options, headers: { 'x-admin-key': adminKey, ...headers } });
}
