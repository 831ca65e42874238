import { IsIn, IsInt, IsISO8601, IsOptional, IsString, IsUUID, Matches, MaxLength, Min, ValidateIf } from 'class-validator';
import { END_TO_END_ID_PATTERN } from '../../inflows/pix-in.validators';

/**
 * The two kinds of MED case DICT hands to the receiving participant (vendor/bacen-pix-dict-api, tags
 * "InfractionReport" and "Refund"): an infraction report (relato de infração), on which the received funds are
 * blocked as a precaution, and a refund request (solicitação de devolução), which asks them back.
 */
export const MED_CASE_KINDS = ['infraction_report', 'refund_request'] as const;
export type MedCaseKind = (typeof MED_CASE_KINDS)[number];

/** DICT's InfractionType (a report) and RefundReason (a request), as DICT writes them. */
export const MED_CASE_REASONS = ['FRAUD', 'REFUND_REQUEST', 'REFUND_CANCELLED', 'OPERATIONAL_FLAW'] as const;
export type MedCaseReason = (typeof MED_CASE_REASONS)[number];

/** Which case, of which kind, on which payment: the fields every MED case event starts with. */
export class MedCaseReference {
  /** DICT's id of the report or the request (a UUID). */
  @IsUUID()
  case_id!: string;

  @IsIn(MED_CASE_KINDS)
  kind!: MedCaseKind;

  /** The payment in question (DICT's TransactionId), an inflow of the inflows service. */
  @Matches(END_TO_END_ID_PATTERN)
  end_to_end_id!: string;
}

/**
 * pix-keys.event.med-case-received.v1: DICT holds a case against a payment this operator received (an infraction
 * report of which this operator is the credited participant, a refund request of which it is the contested one).
 * The pix-keys service, DICT's client, publishes it once per case; the inflows service, which holds the money,
 * records it once per `case_id` and blocks the funds. Not a feed event.
 */
export class MedCaseReceivedEvent extends MedCaseReference {
  @IsIn(MED_CASE_REASONS)
  reason!: MedCaseReason;

  /** A refund request's RefundAmount in cents; null for an infraction report (it names no amount). */
  @ValidateIf((_, value) => value !== null)
  @IsInt()
  @Min(1)
  amount_cents!: number | null;

  /** The requesting participant's ReportDetails / RefundDetails, if any. */
  @ValidateIf((_, value) => value !== null)
  @IsString()
  @MaxLength(2000)
  details!: string | null;

  /** A refund request's InfractionReportId (the report it follows, a fraud's); null otherwise. */
  @ValidateIf((_, value) => value !== null)
  @IsUUID()
  infraction_report_id!: string | null;

  /** The ISPB of the participant that opened the case (the payer's). */
  @Matches(/^[0-9]{8}$/)
  opened_by!: string;

  /** When DICT created the case (its CreationTime). */
  @IsISO8601({ strict: true })
  opened_at!: string;

  @IsOptional()
  @IsISO8601({ strict: true })
  received_at?: string;
}
