import type { CallOptions, HttpTransport } from '../http-transport';
import type { AddressChallenge, SaveAddressRequest, SavedAddress, SavedAddressList } from '../sdk.types';

/** A user's saved destinations with their owners (docs/api.md: "The destination's owner"). */
export class AddressesResource {
  constructor(private readonly http: HttpTransport) {}

  private path(document: string): string {
    return `/partner/v1/users/${encodeURIComponent(document)}/addresses`;
  }

  list(document: string, options?: CallOptions): Promise<SavedAddressList> {
    return this.http.get(this.path(document), undefined, options);
  }

  /** The text a self-hosted wallet's key signs (personal_sign, EIP-191) to prove control; send it as `proof.signature` to `save`. */
  challenge(document: string, address: string, options?: CallOptions): Promise<AddressChallenge> {
    return this.http.get(`${this.path(document)}/challenge`, { address }, options);
  }

  /** Saves it with its owner (saving again replaces them): safe to retry. */
  async save(document: string, request: SaveAddressRequest, options?: CallOptions): Promise<SavedAddress> {
    return (
      await this.http.send<SavedAddress>({ method: 'POST', path: this.path(document), body: request, retryability: 'idempotent' }, options)
    ).body;
  }

  /** Removes it (not retried after an unknown outcome: a second try would answer 404). */
  async remove(document: string, address: string, options?: CallOptions): Promise<SavedAddress> {
    const path = `${this.path(document)}/${encodeURIComponent(address)}`;
    return (await this.http.send<SavedAddress>({ method: 'DELETE', path, retryability: 'unsafe' }, options)).body;
  }
}
