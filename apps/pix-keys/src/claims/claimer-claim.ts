import { Transaction } from '@partner/db';
import { DictClaim } from '../dict/dict-directory';
import { PixKey, PixKeyRepository } from '../pix-keys/pix-key.repository';
import { claimChanged } from './pix-key-claim-event';
import { PixKeyClaimRepository } from './pix-key-claim.repository';

/**
 * A claim this operator made for `key` (a portability of a CPF held elsewhere), as DICT answered createClaim or
 * listed it: recorded (owing DICT its completion if the donor confirmed already), the key out of the registration
 * queue until the claim ends, and `claim_requested` reported once.
 */
export async function recordClaimerClaim(
  tx: Transaction,
  claims: PixKeyClaimRepository,
  pixKeys: PixKeyRepository,
  key: PixKey,
  claim: DictClaim,
): Promise<void> {
  const recorded = await claims.recordNew(tx, key.partnerId, key.id, 'claimer', claim, claim.status === 'CONFIRMED' ? 'complete' : null);
  const parked = await pixKeys.park(tx, key.partnerId, key.id);
  if (recorded && parked) tx.emit(claimChanged(parked, recorded, 'claim_requested', claim.lastModified));
}
