import { ApiProperty } from '../../api-documentation';
import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsISO8601, IsString, Length, Max, Min } from 'class-validator';
import { positiveIntegerString } from '../../query-transforms';

/** An operator's note (a finding's step, a payout's cancel): printable text, 1 to 1,000 characters. */
export const OPERATOR_NOTE_MESSAGE = 'note must be 1 to 1000 characters of text';

/** The body of POST /admin/v1/reconciliation/findings/{id}/acknowledge and /resolve. */
export class FindingNoteRequest {
  @ApiProperty({ description: 'What was checked or decided (kept with the finding, one line per step)', minLength: 1, maxLength: 1000 })
  @IsString({ message: OPERATOR_NOTE_MESSAGE })
  @Length(1, 1000, { message: OPERATOR_NOTE_MESSAGE })
  note!: string;
}

/** `{id}` of a finding's path. */
export class FindingParams {
  @ApiProperty({ type: 'integer', minimum: 1 })
  @Transform(positiveIntegerString)
  @IsInt({ message: 'id must be a finding id' })
  @Min(1, { message: 'id must be a finding id' })
  @Max(Number.MAX_SAFE_INTEGER, { message: 'id must be a finding id' })
  id!: number;
}

/** The two steps of a finding's workflow. */
export const FINDING_STEPS = ['acknowledge', 'resolve'] as const;
export type FindingStep = (typeof FINDING_STEPS)[number];

/**
 * withdrawals.command.reconciliation-finding-step.v1: an operator acknowledges (open → acknowledged) or
 * resolves (open or acknowledged → resolved) a finding. Resolving a nonce_ahead finding lifts the stop it
 * put on its wallet; resolving a nonce_taken one fails its withdrawal and releases the hold.
 */
export class FindingStepCommand extends FindingNoteRequest {
  @IsInt()
  @Min(1)
  finding_id!: number;

  @IsIn(FINDING_STEPS)
  step!: FindingStep;

  /** The operator key that asked (its name and prefix), recorded with the step. */
  @IsString()
  @Length(1, 200)
  by!: string;

  @IsISO8601()
  asked_at!: string;
}
