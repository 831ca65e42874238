import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, Length } from 'class-validator';
import { PartnerLimitsRequest } from '../partners/partners.dto';

/** Body of POST /sandbox/v1/partners: the operator API's partner, with its name optional. */
export class CreatePartnerRequest extends PartnerLimitsRequest {
  @ApiPropertyOptional({ example: 'acme' })
  @IsOptional()
  @IsString()
  @Length(1, 120)
  name?: string;
}

/** The answer of POST /sandbox/v1/partners: the API key is shown this once (only its SHA-256 is stored). */
export class CreatePartnerResponse {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty({ example: 'acme' })
  name!: string;

  @ApiProperty({
    description: 'The X-API-Key of the partner: pk_sandbox_ and 43 characters',
    example: 'pk_sandbox_Jr3BV9Z3Yp0x1Q2lUQm5u8b8wI1o7lZ0qYxv6w8d4Zk',
  })
  api_key!: string;
}
