import { recordResponse } from './response-contract';

/**
 * A small HTTP client for the partner API in end-to-end tests: raw status and parsed body, nothing
 * hidden. Every answer is also checked against the OpenAPI document during the e2e run (response-contract.ts).
 */
export interface ApiResponse<T = Record<string, unknown>> {
  status: number;
  body: T;
  headers: Headers;
}

export class ApiClient {
  /** The (first) gateway this client talks to. */
  readonly baseUrl: string;
  private readonly bases: readonly string[];
  private turn = 0;

  /** `baseUrl`: one gateway, or several instances in front of the same services, taken in turn request by request. */
  constructor(
    baseUrl: string | readonly string[],
    private readonly headers: Record<string, string> = {},
  ) {
    this.bases = typeof baseUrl === 'string' ? [baseUrl] : baseUrl;
    if (this.bases.length === 0) throw new Error('ApiClient needs a base URL');
    this.baseUrl = this.bases[0];
  }

  withHeaders(headers: Record<string, string>): ApiClient {
    return new ApiClient(this.bases, { ...this.headers, ...headers });
  }

  async request<T = Record<string, unknown>>(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<ApiResponse<T>> {
    const init: RequestInit = { method, headers: { ...this.headers, ...headers }, signal: AbortSignal.timeout(30_000) };
    if (body !== undefined) {
      init.body = typeof body === 'string' ? body : JSON.stringify(body);
      (init.headers as Record<string, string>)['content-type'] ??= 'application/json';
    }
    const base = this.bases[this.turn++ % this.bases.length];
    const res = await fetch(`${base}${path}`, init);
    const text = await res.text();
    const sent = {
      headers: Object.fromEntries(Object.entries(init.headers as Record<string, string>).map(([k, v]) => [k.toLowerCase(), v])),
      body: init.body as string | undefined,
    };
    recordResponse(method, res.url || `${base}${path}`, res.status, res.headers, text, sent);
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      /* not JSON: the assertion on the body will show the text */
    }
    return { status: res.status, body: parsed as T, headers: res.headers };
  }

  get<T = Record<string, unknown>>(path: string) {
    return this.request<T>('GET', path);
  }
  post<T = Record<string, unknown>>(path: string, body?: unknown) {
    return this.request<T>('POST', path, body);
  }
  patch<T = Record<string, unknown>>(path: string, body?: unknown) {
    return this.request<T>('PATCH', path, body);
  }
}
