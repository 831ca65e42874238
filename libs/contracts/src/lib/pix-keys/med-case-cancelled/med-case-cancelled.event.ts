import { IsISO8601 } from 'class-validator';
import { MedCaseReference } from '../med-case-received/med-case-received.event';

/**
 * pix-keys.event.med-case-cancelled.v1: a MED case told with MedCaseReceivedEvent was cancelled in DICT by the
 * participant that opened it (an infraction report "a qualquer momento, mesmo depois de fechado"; a refund request
 * while not yet analysed). The pix-keys service publishes it once per case, and owes DICT nothing more for it; the
 * inflows service ends a case not yet decided `cancelled` and releases its block. Not a feed event.
 */
export class MedCaseCancelledEvent extends MedCaseReference {
  /** When DICT cancelled it (the case's LastModified as DICT shows it CANCELLED). */
  @IsISO8601({ strict: true })
  cancelled_at!: string;
}
