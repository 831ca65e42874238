import { ApiProperty } from '@nestjs/swagger';
import { IsUUID } from 'class-validator';

export class EventIdParams {
  @ApiProperty({ format: 'uuid' })
  @IsUUID('all', { message: 'id must be a UUID' })
  id!: string;
}
