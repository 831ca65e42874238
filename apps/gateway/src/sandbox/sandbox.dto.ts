import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, Length } from 'class-validator';

export class CreatePartnerRequest {
  @ApiPropertyOptional({ example: 'acme' })
  @IsOptional()
  @IsString()
  @Length(1, 120)
  name?: string;
}
