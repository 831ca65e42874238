import { ApiProperty } from '../../api-documentation';
import { IsUUID } from 'class-validator';
import { IsCpf } from '@partner/validation';
import { codesOf } from '../../error-codes';
import { PartnerId } from '../../tenancy/partner-id';

const pixKeysCode = codesOf('pix_keys');

/** Body of DELETE /partner/v1/pix-key/{document} (docs/api.md: "Pix keys"); the CPF comes from the path. */
export class DeletePixKeyRequest {
  @ApiProperty({ format: 'uuid' })
  @IsUUID('all', { message: 'idempotency_key must be a UUID' })
  idempotency_key!: string;
}

/** The path parameter of DELETE /partner/v1/pix-key/{document}. */
export class PixKeyDocumentParams {
  @IsCpf(pixKeysCode('invalid_document'))
  document!: string;
}

export class DeletePixKeyCommand extends DeletePixKeyRequest {
  @IsUUID()
  partner_id!: PartnerId;

  @IsCpf(pixKeysCode('invalid_document'))
  document!: string;
}
