import { ApiProperty, ApiPropertyOptional } from '../../api-documentation';
import { IntersectionType } from '@nestjs/mapped-types';
import { IsIn, IsOptional, IsUUID } from 'class-validator';
import { IsCpf } from '@partner/validation';
import { codesOf } from '../../error-codes';
import { PartnerId } from '../../tenancy/partner-id';

const pixKeysCode = codesOf('pix_keys');

/**
 * The reasons DICT lets the donor give (openapi.yaml, confirmClaim's and cancelClaim's tables, PORTABILITY, donor):
 * a confirmation USER_REQUESTED or ACCOUNT_CLOSURE; a cancellation USER_REQUESTED or FRAUD (DEFAULT_OPERATION is the
 * default's, never the partner's).
 */
export const CLAIM_CONFIRM_REASONS = ['user_requested', 'account_closure'] as const;
export const CLAIM_CANCEL_REASONS = ['user_requested', 'fraud'] as const;

/** The path of POST /partner/v1/pix-key/{document}/claims/{claim_id}/confirm (and /cancel). */
export class PixKeyClaimParams {
  @IsCpf(pixKeysCode('invalid_document'))
  document!: string;

  @IsUUID('all', { message: 'claim_id must be a UUID' })
  claim_id!: string;
}

/** Body of .../confirm: the user releases the key to the claimer. */
export class ConfirmPixKeyClaimRequest {
  @ApiPropertyOptional({
    enum: CLAIM_CONFIRM_REASONS,
    default: 'user_requested',
    description: "Why: the user's request (default), or the account's closure",
  })
  @IsOptional()
  @IsIn(CLAIM_CONFIRM_REASONS, { message: 'reason must be user_requested or account_closure' })
  reason?: (typeof CLAIM_CONFIRM_REASONS)[number];
}

/** Body of .../cancel: the key stays here; a reason is required (DICT takes none without one). */
export class CancelPixKeyClaimRequest {
  @ApiProperty({ enum: CLAIM_CANCEL_REASONS, description: "Why: the user's request (the user keeps the key here), or fraud" })
  @IsIn(CLAIM_CANCEL_REASONS, { message: 'reason must be user_requested or fraud' })
  reason!: (typeof CLAIM_CANCEL_REASONS)[number];
}

/** Whose claim a decision is about: the partner, the user's document (the key) and DICT's claim id. */
export class PixKeyClaimTarget extends PixKeyClaimParams {
  @IsUUID()
  partner_id!: PartnerId;
}

// Each command is its route's body and target (the path and the partner): one class, both validated.
export class ConfirmPixKeyClaimCommand extends IntersectionType(PixKeyClaimTarget, ConfirmPixKeyClaimRequest) {}
export class CancelPixKeyClaimCommand extends IntersectionType(PixKeyClaimTarget, CancelPixKeyClaimRequest) {}

/** 202 accepted: sent to DICT (pix_key events tell the end); 200 already_sent: the same decision was taken already. */
export const CLAIM_DECISION_ANSWERS = ['accepted', 'already_sent'] as const;
export class PixKeyClaimDecisionResult {
  @ApiProperty({ enum: CLAIM_DECISION_ANSWERS })
  status!: (typeof CLAIM_DECISION_ANSWERS)[number];
}
