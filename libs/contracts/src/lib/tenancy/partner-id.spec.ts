import { authenticatedPartnerId, PartnerId } from './partner-id';

// The brand's compile-time guarantees are proven by partner-id.type-spec.ts.
const scoped = (partnerId: PartnerId): string => partnerId;

describe('PartnerId', () => {
  it('is minted from an id without changing it: the brand exists only in the types', () => {
    const id = '6f1c2f7e-2b0a-4c1e-9a55-3a1c9a0b7d21';
    const partnerId: PartnerId = authenticatedPartnerId(id);
    expect(partnerId).toBe(id);
    expect(typeof partnerId).toBe('string');
    expect(scoped(partnerId)).toBe(id);
  });
});
