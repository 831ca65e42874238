import { destinationRefusal } from './destination-rule';
import { DEFAULT_POLICY, SavedAddress } from './destinations.repository';

const ADDRESS = '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045';
const beneficiary = { wallet: 'self_hosted' as const, name: 'Maria da Silva Souza', first_party: true };
const saved: SavedAddress = {
  address: ADDRESS.toLowerCase(),
  label: null,
  beneficiary,
  proof: null,
  createdAt: new Date('2026-11-30T10:00:00Z'),
};
const at = (iso: string) => new Date(iso);

describe('the destination rule of a withdrawal', () => {
  it('asks nothing under the default policy', () => {
    expect(destinationRefusal(DEFAULT_POLICY, null, undefined, ADDRESS, at('2026-11-30T10:00:00Z'))).toBeNull();
  });

  it('with beneficiary_required: the request names one, or the saved address does', () => {
    const policy = { ...DEFAULT_POLICY, beneficiaryRequired: true };
    expect(destinationRefusal(policy, null, undefined, ADDRESS, at('2026-11-30T10:00:00Z'))).toMatchObject({
      code: 'beneficiary_required',
      field: 'beneficiary',
    });
    expect(destinationRefusal(policy, null, beneficiary, ADDRESS, at('2026-11-30T10:00:00Z'))).toBeNull();
    expect(destinationRefusal(policy, saved, undefined, ADDRESS, at('2026-11-30T10:00:00Z'))).toBeNull();
  });

  it('with address_book_only: refuses an address not saved, and a saved one until its cool-down passed', () => {
    const policy = { ...DEFAULT_POLICY, addressBookOnly: true, addressCooldownSeconds: 86_400 };
    expect(destinationRefusal(policy, null, beneficiary, ADDRESS, at('2026-12-05T00:00:00Z'))).toEqual({
      code: 'address_not_saved',
      message: `address ${ADDRESS.toLowerCase()} is not in the user's saved addresses: save it first`,
      field: 'address',
    });
    expect(destinationRefusal(policy, saved, undefined, ADDRESS, at('2026-12-01T09:59:59Z'))).toEqual({
      code: 'address_cooling_down',
      message: `address ${ADDRESS.toLowerCase()} was saved at 2026-11-30T10:00:00.000Z: it can be paid from 2026-12-01T10:00:00.000Z`,
      field: 'address',
    });
    expect(destinationRefusal(policy, saved, undefined, ADDRESS, at('2026-12-01T10:00:00Z'))).toBeNull();
  });
});
