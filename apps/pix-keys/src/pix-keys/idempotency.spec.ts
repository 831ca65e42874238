import { fingerprintOf } from './idempotency';

describe('fingerprintOf', () => {
  it('is the same for the same operation and document, and differs when either differs', () => {
    expect(fingerprintOf('create', '52998224725')).toBe(fingerprintOf('create', '52998224725'));
    expect(fingerprintOf('create', '52998224725')).not.toBe(fingerprintOf('delete', '52998224725'));
    expect(fingerprintOf('create', '52998224725')).not.toBe(fingerprintOf('create', '11144477735'));
  });
});
