import { authenticatedPartnerId, PartnerId } from './partner-id';

// The brand's guarantees are compile-time ones: tsc (which checks specs) fails if a bare string becomes
// assignable to PartnerId, since the @ts-expect-error lines below would then expect an error in vain.
const scoped = (partnerId: PartnerId): string => partnerId;

describe('PartnerId', () => {
  it('is minted from an id without changing it: the brand exists only in the types', () => {
    const id = '6f1c2f7e-2b0a-4c1e-9a55-3a1c9a0b7d21';
    const partnerId: PartnerId = authenticatedPartnerId(id);
    expect(partnerId).toBe(id);
    expect(typeof partnerId).toBe('string');
    expect(scoped(partnerId)).toBe(id);
  });

  it('refuses a bare string where a PartnerId is required', () => {
    const fromRequestBody = 'made-up';
    // @ts-expect-error a string is not a PartnerId: only authenticatedPartnerId makes one
    expect(scoped(fromRequestBody)).toBe(fromRequestBody);
    // @ts-expect-error nor is a template literal built from one
    const built: PartnerId = `${fromRequestBody}`;
    expect(built).toBe(fromRequestBody);
  });
});
