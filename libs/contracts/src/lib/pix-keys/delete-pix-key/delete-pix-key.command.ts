import { IsUUID } from 'class-validator';
import { IsCpf } from '@partner/validation';

/** DELETE /partner/v1/pix-key/{document} (spec 4.3). */
export class DeletePixKeyCommand {
  @IsUUID()
  partner_id!: string;

  @IsCpf()
  document!: string;

  @IsUUID()
  idempotency_key!: string;
}
