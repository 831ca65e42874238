import { IsUUID } from 'class-validator';

export class EventIdParams {
  @IsUUID('all', { message: 'id must be a UUID' })
  id!: string;
}
