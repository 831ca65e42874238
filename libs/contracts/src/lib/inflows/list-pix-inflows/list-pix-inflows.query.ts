import { IsUUID } from 'class-validator';

/** GET /partner/v1/pix-in (spec 4.5). */
export class ListPixInflowsQuery {
  @IsUUID()
  partner_id!: string;
}

export interface ListPixInflowsResult {
  pix_in: Record<string, unknown>[];
}
