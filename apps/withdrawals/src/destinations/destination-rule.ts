import { Beneficiary, RequestErrorCode, Topics } from '@partner/contracts';
import { SavedAddress, WithdrawalPolicy } from './destinations.repository';

/** Why a withdrawal's destination is refused under its partner's policy. */
export interface DestinationRefusal {
  code: Extract<RequestErrorCode<typeof Topics.WithdrawalsCreate>, 'beneficiary_required' | 'address_not_saved' | 'address_cooling_down'>;
  message: string;
  field: string;
}

/** From when a saved address can be paid under the policy's cool-down. */
export const usableFrom = (saved: Pick<SavedAddress, 'createdAt'>, policy: WithdrawalPolicy): Date =>
  new Date(saved.createdAt.getTime() + policy.addressCooldownSeconds * 1000);

/**
 * The destination rule of a withdrawal (docs/operations/destinations.md): with address_book_only, only to a
 * saved address, and only once its cool-down has passed; with beneficiary_required, naming the beneficiary,
 * in the request or through the saved address. Null: allowed.
 */
export function destinationRefusal(
  policy: WithdrawalPolicy,
  saved: SavedAddress | null,
  beneficiary: Beneficiary | undefined,
  address: string,
  now: Date,
): DestinationRefusal | null {
  const lower = address.toLowerCase();
  if (policy.addressBookOnly) {
    if (!saved)
      return {
        code: 'address_not_saved',
        message: `address ${lower} is not in the user's saved addresses: save it first`,
        field: 'address',
      };
    const from = usableFrom(saved, policy);
    if (now < from)
      return {
        code: 'address_cooling_down',
        message: `address ${lower} was saved at ${saved.createdAt.toISOString()}: it can be paid from ${from.toISOString()}`,
        field: 'address',
      };
  }
  if (policy.beneficiaryRequired && !beneficiary && !saved)
    return {
      code: 'beneficiary_required',
      message: 'a beneficiary is required: name the owner of the destination (beneficiary), or save the address with its owner first',
      field: 'beneficiary',
    };
  return null;
}
