import { randomUUID } from 'node:crypto';
import type { CallOptions, HttpTransport } from '../http-transport';
import { ListedResource } from '../paginator';
import type { CreatePixKeyRequest, DeletePixKeyRequest, ListPixKeysQuery, PixKey, PixKeyRequestResult, PixKeyStatus } from '../sdk.types';

/** Pix keys (a user's CPF as their key); `list`/`listPage` filtered by status and document. */
export class PixKeysResource extends ListedResource<PixKey, ListPixKeysQuery, 'pix_keys'> {
  constructor(http: HttpTransport) {
    super(http, '/partner/v1/pix-key', 'pix_keys');
  }

  /** Asks for the user's CPF to be registered as their Pix key (`accepted`); the outcome comes as pix_key events. Key: as for withdrawals. */
  create(request: CreatePixKeyRequest, options?: CallOptions): Promise<PixKeyRequestResult> {
    return this.keyed('POST', this.path, request, options);
  }

  /** Asks for the user's key to be deleted: `accepted`, `already_sent` or `succeeded`; confirmed by a pix_key `canceled` event. */
  delete(document: string, request: DeletePixKeyRequest = {}, options?: CallOptions): Promise<PixKeyRequestResult> {
    return this.keyed('DELETE', `${this.path}/${encodeURIComponent(document)}`, request, options);
  }

  get(document: string, options?: CallOptions): Promise<PixKey> {
    return this.http.get(`${this.path}/${encodeURIComponent(document)}`, undefined, options);
  }

  /** A key request with its idempotency key: the caller's, or one made once for this call and kept on every retry. */
  private async keyed(
    method: 'POST' | 'DELETE',
    path: string,
    request: { idempotency_key?: string },
    options?: CallOptions,
  ): Promise<PixKeyRequestResult> {
    const body = { ...request, idempotency_key: request.idempotency_key ?? randomUUID() };
    const answer = await this.http.send<{ status: PixKeyStatus }>({ method, path, body, retryability: 'idempotent' }, options);
    return { status: answer.body.status, idempotency_key: body.idempotency_key };
  }
}
