import { PartnerId, SavedAddressView, WithdrawalPolicyView } from '@partner/contracts';
import { usableFrom } from './destination-rule';
import { SavedAddress, WithdrawalPolicy } from './destinations.repository';

const seconds = (d: Date): number => Math.floor(d.getTime() / 1000);

export const toPolicyView = (partnerId: PartnerId, p: WithdrawalPolicy): WithdrawalPolicyView => ({
  partner_id: partnerId,
  beneficiary_required: p.beneficiaryRequired,
  address_book_only: p.addressBookOnly,
  address_cooldown_seconds: p.addressCooldownSeconds,
  updated_at: p.updatedAt === null ? null : seconds(p.updatedAt),
  updated_by: p.updatedBy,
});

/** A saved address as the partner reads it; `usable_from` under the partner's policy now. */
export const toSavedAddressView = (s: SavedAddress, policy: WithdrawalPolicy): SavedAddressView => ({
  address: s.address,
  label: s.label,
  beneficiary: s.beneficiary,
  verified: s.proof !== null,
  created_at: seconds(s.createdAt),
  usable_from: seconds(usableFrom(s, policy)),
});
