import { IsUUID } from 'class-validator';
import { PartnerId } from '../../tenancy/partner-id';

export class MarkEventDeliveredCommand {
  @IsUUID()
  partner_id!: PartnerId;

  @IsUUID('all', { message: 'id must be a UUID' })
  event_id!: string;
}

export type MarkEventDeliveredResult = Record<string, never>;
