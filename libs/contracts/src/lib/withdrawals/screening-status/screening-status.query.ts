import { IsISO8601 } from 'class-validator';

/** withdrawals.query.screening-status.v1: the lists destinations are screened against, with the SDN copy's date (operator API). */
export class ScreeningStatusQuery {
  @IsISO8601()
  asked_at!: string;
}
