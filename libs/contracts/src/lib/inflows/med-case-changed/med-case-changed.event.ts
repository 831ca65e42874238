import { IsIn, IsInt, IsISO8601, IsString, Matches, MaxLength, Min, ValidateIf } from 'class-validator';
import { MedCaseReference } from '../../pix-keys/med-case-received/med-case-received.event';

/**
 * A MED case's statuses at the inflows service (docs/operations/pix-and-dict.md, "MED"):
 * - `open`: received, the funds it can reach blocked, waiting for the operator's decision;
 * - `agreed` / `disagreed`: an infraction report decided (agreed keeps the block for the refund request to come,
 *   disagreed releases it);
 * - `returning`: a refund request accepted, its devolução sent to the Pix provider;
 * - `returned`: the devolução settled; `rejected`: a refund request refused, the block released;
 * - `cancelled`: withdrawn in DICT by the participant that opened it before it was decided (or an agreed report
 *   still holding its block): the block released, nothing told DICT; it is decided no more.
 */
export const MED_CASE_STATUSES = ['open', 'agreed', 'disagreed', 'returning', 'returned', 'rejected', 'cancelled'] as const;
export type MedCaseStatus = (typeof MED_CASE_STATUSES)[number];

/** What DICT is to be told when the case is closed: closeInfractionReport's AnalysisResult, closeRefund's RefundAnalysisResult. */
export const MED_DICT_RESULTS = ['AGREED', 'DISAGREED', 'TOTALLY_ACCEPTED', 'PARTIALLY_ACCEPTED', 'REJECTED'] as const;
export type MedDictResult = (typeof MED_DICT_RESULTS)[number];

/** closeRefund's RefundRejectionReason. */
export const MED_REJECTION_REASONS = ['NO_BALANCE', 'ACCOUNT_CLOSURE', 'CANNOT_REFUND', 'OTHER'] as const;
export type MedRejectionReason = (typeof MED_REJECTION_REASONS)[number];

/**
 * inflows.event.med-case-changed.v1: a MED case reached a status. When `dict_result` is set, the case is decided
 * and DICT is to be told (the pix-keys service closes the report or the request with it, once); until then the
 * event only reports. Not a feed event: partners see the inflow's own `pix_in` events (`blocked`, ...).
 */
export class MedCaseChangedEvent extends MedCaseReference {
  @IsIn(MED_CASE_STATUSES)
  status!: MedCaseStatus;

  /** Cents of the user's BRL balance the case holds blocked now. */
  @IsInt()
  @Min(0)
  blocked_cents!: number;

  /** Cents returned to the payer by devolução. */
  @IsInt()
  @Min(0)
  returned_cents!: number;

  @ValidateIf((_, value) => value !== null)
  @IsIn(MED_DICT_RESULTS)
  dict_result!: MedDictResult | null;

  /** A rejected refund request's reason for DICT. */
  @ValidateIf((_, value) => value !== null)
  @IsIn(MED_REJECTION_REASONS)
  rejection_reason!: MedRejectionReason | null;

  /** The analysis, for DICT's AnalysisDetails / RefundAnalysisDetails. */
  @ValidateIf((_, value) => value !== null)
  @IsString()
  @MaxLength(2000)
  analysis_details!: string | null;

  /** An accepted refund request's devolução: its end-to-end id (`D…`, 32 characters), DICT's RefundTransactionId. */
  @ValidateIf((_, value) => value !== null)
  @Matches(/^\w{32}$/)
  refund_transaction_id!: string | null;

  @IsISO8601({ strict: true })
  changed_at!: string;
}
