import { FakeApiKeyRepository } from '../api-keys/fake-api-key-repository.spec-support';
import { FakePartnerRepository } from './fake-partner-repository.spec-support';

/** A repository with one key of partner p1 (named P): `keys.lookups` counts its lookups, `keys.gate` holds them until released. */
export function repositoryWith(key: string, keyId = 'k1') {
  const partners = new FakePartnerRepository();
  const partner = partners.put({ id: 'p1', name: 'P' });
  const keys = new FakeApiKeyRepository(partners);
  keys.issue(partner.id, key, { id: keyId });
  return { keys, partners, partner };
}
