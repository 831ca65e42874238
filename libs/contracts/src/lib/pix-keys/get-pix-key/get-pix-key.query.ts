import { ApiProperty } from '../../api-documentation';
import { IsUUID } from 'class-validator';
import { PixKeyDocumentParams } from '../delete-pix-key/delete-pix-key.command';
import { PIX_KEY_STATES, PIX_KEY_TYPES, PixKeyState, PixKeyType } from '../pix-key-state-changed/pix-key-state-changed.event';
import { PartnerId } from '../../tenancy/partner-id';

/** GET /partner/v1/pix-key/{document}: the path CPF (PixKeyDocumentParams at HTTP) and the partner. */
export class GetPixKeyQuery extends PixKeyDocumentParams {
  @IsUUID()
  partner_id!: PartnerId;
}

/**
 * The user's current key as GET /partner/v1/pix-key/{document} answers it: the active one (pending,
 * registered or deleting) when there is one, else the latest that ended (failed or canceled).
 */
export class PixKeyView {
  @ApiProperty({ description: "The user's CPF (the key itself for a cpf key)", example: '52998224725' })
  document!: string;

  @ApiProperty({ enum: PIX_KEY_TYPES, description: "The key's type" })
  key_type!: PixKeyType;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The key: the CPF, or the UUID DICT generated for an evp key (null until DICT registered it)',
    example: '52998224725',
  })
  key!: string | null;

  @ApiProperty({ enum: PIX_KEY_STATES, description: "The key's state" })
  status!: PixKeyState;

  @ApiProperty({ type: 'integer', description: 'Unix seconds' })
  created_at!: number;

  @ApiProperty({ type: 'integer', description: 'Unix seconds of the last state change' })
  last_updated_at!: number;
}

export type GetPixKeyResult = PixKeyView;
