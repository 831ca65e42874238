import { ApiProperty, ApiPropertyOptional } from '../../api-documentation';
import { IsIn, IsOptional, IsUUID } from 'class-validator';
import { IsCpf } from '@partner/validation';
import { codesOf } from '../../error-codes';
import { NEXT_CURSOR_PROPERTY, PagedListRequest } from '../../paging/list-page';
import { PartnerId } from '../../tenancy/partner-id';
import { PixKeyView } from '../get-pix-key/get-pix-key.query';
import { PIX_KEY_STATES, PixKeyState } from '../pix-key-state-changed/pix-key-state-changed.event';

const pixKeysCode = codesOf('pix_keys');

/** Query string of GET /partner/v1/pix-key (docs/api.md: "Lists"). */
export class ListPixKeysRequest extends PagedListRequest {
  @ApiPropertyOptional({ enum: PIX_KEY_STATES, description: 'Only keys in this state now' })
  @IsOptional()
  @IsIn(PIX_KEY_STATES, { message: `status must be one of ${PIX_KEY_STATES.join(', ')}` })
  status?: PixKeyState;

  @ApiPropertyOptional({ description: "Only this user's keys: a CPF, 11 digits", example: '52998224725' })
  @IsOptional()
  @IsCpf(pixKeysCode('invalid_document'))
  document?: string;
}

export class ListPixKeysQuery extends ListPixKeysRequest {
  @IsUUID()
  partner_id!: PartnerId;
}

export class ListPixKeysResult {
  @ApiProperty({
    type: () => [PixKeyView],
    description:
      'Every key asked for, ended ones (failed, canceled) included, newest first (by creation time), each as GET /partner/v1/pix-key/{document} answers it',
  })
  pix_keys!: PixKeyView[];

  @ApiProperty(NEXT_CURSOR_PROPERTY)
  next_cursor!: string | null;
}
