import { Injectable } from '@nestjs/common';
import { CancelPixKeyClaimCommand, ConfirmPixKeyClaimCommand, fail, ok, RequestReply, Topics } from '@partner/contracts';
import { UnitOfWork } from '@partner/db';
import { ClaimActionReason, PixKeyClaimRepository } from './pix-key-claim.repository';

type Decision = { action: 'confirm'; command: ConfirmPixKeyClaimCommand } | { action: 'cancel'; command: CancelPixKeyClaimCommand };
type DecisionReply = RequestReply<typeof Topics.PixKeysConfirmClaim> | RequestReply<typeof Topics.PixKeysCancelClaim>;

/**
 * The partner's answer to a claim of the user's key (docs/api.md, "Claims"): confirm (the user releases the key to the
 * claimer) or cancel (the user keeps it here). Recorded as the call owed DICT, which the claims worker sends
 * (ProcessDictClaimsUseCase); DICT's answer comes as a pix_key event. Idempotent by nature: a claim is decided once,
 * so the same decision again is `already_sent` and the other one `claim_not_pending`, as is any decision on a claim
 * that no longer waits (ended, or decided by the default at the end of its resolution period).
 */
@Injectable()
export class DecidePixKeyClaimUseCase {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly claims: PixKeyClaimRepository,
  ) {}

  async execute({ action, command }: Decision): Promise<DecisionReply> {
    const { partner_id: partnerId, document, claim_id: claimId } = command;
    // DICT's reasons are the partner's in upper case (decide-pix-key-claim.command.ts lists those the donor may give).
    const reason = (command.reason ?? 'user_requested').toUpperCase() as ClaimActionReason;
    const decided = await this.unitOfWork.run((tx) => this.claims.decide(tx, partnerId, document, claimId, action, reason, new Date()));
    if (decided) return ok({ status: 'accepted' });
    const claim = await this.claims.findForPartner(partnerId, document, claimId);
    if (!claim) return fail('claim_not_found', `no claim ${claimId} on the Pix key of document ${document}`);
    if (claim.decidedBy === 'partner' && claim.dictAction === action && claim.dictActionReason === reason)
      return ok({ status: 'already_sent' });
    if (claim.decidedBy === 'partner' && claim.dictAction === null && sameOutcome(action, claim.status))
      return ok({ status: 'already_sent' });
    return fail(
      'claim_not_pending',
      `the claim is ${claim.status}${claim.decidedBy ? `, decided by the ${claim.decidedBy}` : ''}: it takes no decision now`,
    );
  }
}

/** A claim the partner's decision has already brought to its end at DICT. */
const sameOutcome = (action: 'confirm' | 'cancel', status: string) =>
  action === 'confirm' ? status === 'confirmed' || status === 'completed' : status === 'cancelled';
