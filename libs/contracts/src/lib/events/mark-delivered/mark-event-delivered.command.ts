import { IsUUID } from 'class-validator';

export class MarkEventDeliveredCommand {
  @IsUUID()
  partner_id!: string;

  @IsUUID('all', { message: 'id must be a UUID' })
  event_id!: string;
}

export type MarkEventDeliveredResult = Record<string, never>;
