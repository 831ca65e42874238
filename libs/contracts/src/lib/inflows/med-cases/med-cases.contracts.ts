import { IsIn, IsInt, IsISO8601, IsOptional, IsString, IsUUID, Length, Max, Min, ValidateIf } from 'class-validator';
import { ApiProperty, ApiPropertyOptional } from '../../api-documentation';
import { PartnerId } from '../../tenancy/partner-id';
import { OperatorPageRequest } from '../../withdrawals/operator-page.request';
import { MAX_PIX_IN_CENTS } from '../simulate-pix-in/simulate-pix-in.command';
import { MED_CASE_KINDS, MED_CASE_REASONS, MedCaseKind, MedCaseReason } from '../../pix-keys/med-case-received/med-case-received.event';
import {
  MED_CASE_STATUSES,
  MED_DICT_RESULTS,
  MED_REJECTION_REASONS,
  MedCaseStatus,
  MedDictResult,
  MedRejectionReason,
} from '../med-case-changed/med-case-changed.event';

/** Why a case needs the operator's eye besides its decision: no inflow has its payment, the inflow was not credited, the balance had less. */
export const MED_CASE_ATTENTIONS = ['inflow_unknown', 'inflow_not_credited', 'insufficient_funds'] as const;
export type MedCaseAttention = (typeof MED_CASE_ATTENTIONS)[number];

/** Query of GET /admin/v1/med-cases: optional filters, newest first, paged like the operator's other lists. */
export class ListMedCasesRequest extends OperatorPageRequest {
  @ApiPropertyOptional({ enum: MED_CASE_STATUSES, description: 'Only the cases in this status' })
  @IsOptional()
  @IsIn(MED_CASE_STATUSES, { message: `status must be one of ${MED_CASE_STATUSES.join(', ')}` })
  status?: MedCaseStatus;

  @ApiPropertyOptional({ type: String, format: 'uuid', description: "Only this partner's users' cases" })
  @IsOptional()
  @IsUUID(undefined, { message: 'partner_id must be a UUID' })
  partner_id?: PartnerId;
}

/** inflows.query.list-med-cases.v1: the MED cases, newest first (a cursor the service did not issue is invalid_request). */
export class ListMedCasesQuery extends ListMedCasesRequest {}

/** A MED case as the operator reads it (docs/operations/pix-and-dict.md, "MED: blocking and returning funds"). */
export class MedCaseView {
  @ApiProperty({ format: 'uuid', description: "DICT's id of the report or the request" })
  case_id!: string;

  @ApiProperty({ enum: MED_CASE_KINDS })
  kind!: MedCaseKind;

  @ApiProperty({ enum: MED_CASE_REASONS })
  reason!: MedCaseReason;

  @ApiProperty({ description: 'The payment in question: an inflow', example: 'E60701190202611260430Ab12Cd34Ef5' })
  end_to_end_id!: string;

  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: "The inflow's partner; null when no inflow has the payment" })
  partner_id!: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description: "The inflow's user (CPF); null when no inflow has the payment",
    example: '52998224725',
  })
  document!: string | null;

  @ApiProperty({ enum: MED_CASE_STATUSES })
  status!: MedCaseStatus;

  @ApiProperty({
    type: 'integer',
    description: "Cents the case reaches: a report, the inflow's amount not refunded; a request, its amount capped the same way",
    example: 25_000,
  })
  asked_cents!: number;

  @ApiProperty({ type: 'integer', description: "Cents of the user's balance the case holds blocked now", example: 25_000 })
  blocked_cents!: number;

  @ApiProperty({ type: 'integer', description: 'Cents returned to the payer by devolução', example: 0 })
  returned_cents!: number;

  @ApiProperty({
    type: String,
    nullable: true,
    // null among the values too: OpenAPI 3.0 validators check `enum` before `nullable`.
    enum: [...MED_CASE_ATTENTIONS, null],
    description:
      'Why the operator should look: inflow_unknown (no inflow has the payment: recorded, nothing blocked), inflow_not_credited (nothing of it in the balance), insufficient_funds (the available balance had less than asked); null when none',
  })
  attention!: MedCaseAttention | null;

  @ApiProperty({ type: String, nullable: true, description: "The requesting participant's details" })
  details!: string | null;

  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: "A refund request's infraction report" })
  infraction_report_id!: string | null;

  @ApiProperty({ description: 'ISPB of the participant that opened the case', example: '60701190' })
  opened_by!: string;

  @ApiProperty({ type: 'integer', description: 'Unix seconds: when DICT created the case', example: 1795315285 })
  opened_at!: number;

  @ApiProperty({
    type: String,
    nullable: true,
    enum: [...MED_DICT_RESULTS, null],
    description: 'What DICT is told once decided; null before',
  })
  dict_result!: MedDictResult | null;

  @ApiProperty({ type: String, nullable: true, enum: [...MED_REJECTION_REASONS, null], description: "A rejected request's reason" })
  rejection_reason!: MedRejectionReason | null;

  @ApiProperty({ type: String, nullable: true, description: "The operator's analysis, for DICT" })
  analysis_details!: string | null;

  @ApiProperty({ type: String, nullable: true, description: "An accepted request's devolução: its end-to-end id (RtrId), once returned" })
  refund_transaction_id!: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'The operator key that decided it' })
  decided_by!: string | null;

  @ApiProperty({ type: 'integer', description: 'Unix seconds: when this service received the case', example: 1795315285 })
  created_at!: number;

  @ApiProperty({ type: 'integer', description: 'Unix seconds: the last change', example: 1795315285 })
  last_updated_at!: number;
}

export class MedCasesPage {
  @ApiProperty({ type: [MedCaseView], description: 'Newest first' })
  med_cases!: MedCaseView[];

  @ApiProperty({ type: String, nullable: true, description: 'Pass as cursor for the next (older) page; null on the last page' })
  next_cursor!: string | null;
}

/** The decisions: an infraction report is agreed or disagreed, a refund request accepted or rejected. */
export const MED_DECISIONS = ['agree', 'disagree', 'accept', 'reject'] as const;
export type MedDecision = (typeof MED_DECISIONS)[number];

/** The body of POST /admin/v1/med-cases/{case_id}/decision. */
export class DecideMedCaseRequest {
  @ApiProperty({
    enum: MED_DECISIONS,
    description:
      'An infraction report: agree (the funds stay blocked, for the refund request to come) or disagree (released). A refund request: accept (the blocked cents, up to amount_cents, are returned by devolução) or reject (released)',
  })
  @IsIn(MED_DECISIONS, { message: `decision must be one of ${MED_DECISIONS.join(', ')}` })
  decision!: MedDecision;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    description: 'accept only: return this many of the blocked cents (a partial acceptance; the rest is released). Default: all blocked',
  })
  @IsOptional()
  @IsInt({ message: 'amount_cents must be a positive integer' })
  @Min(1, { message: 'amount_cents must be a positive integer' })
  @Max(MAX_PIX_IN_CENTS, { message: `amount_cents must be at most ${MAX_PIX_IN_CENTS}` })
  amount_cents?: number;

  @ApiProperty({ description: 'The analysis, for DICT (1-2000 characters)', example: 'the user confirmed the payment was a scam' })
  @IsString()
  @Length(1, 2000)
  details!: string;

  @ApiPropertyOptional({ enum: MED_REJECTION_REASONS, description: 'reject only (required there): the reason DICT is given' })
  @ValidateIf((o: DecideMedCaseRequest) => o.decision === 'reject' || o.rejection_reason !== undefined)
  @IsIn(MED_REJECTION_REASONS, { message: `rejection_reason must be one of ${MED_REJECTION_REASONS.join(', ')}` })
  rejection_reason?: MedRejectionReason;
}

/**
 * inflows.command.decide-med-case.v1: the operator decides an open MED case. med_case_not_found for an unknown
 * case, med_case_not_open for one decided already (or returning), med_decision_invalid for a decision of the
 * other kind, invalid_amount for an acceptance over what is blocked (or of nothing), not_implemented to accept
 * without a Pix provider.
 */
export class DecideMedCaseCommand extends DecideMedCaseRequest {
  @IsUUID()
  case_id!: string;

  /** The operator key that decides (its name and prefix). */
  @IsString()
  @Length(1, 200)
  by!: string;

  @IsISO8601()
  asked_at!: string;
}
