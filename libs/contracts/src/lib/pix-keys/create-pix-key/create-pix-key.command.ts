import { IsUUID } from 'class-validator';
import { IsCpf } from '@partner/validation';

/** POST /partner/v1/pix-key (spec 4.4). The pix-keys service fills in the behaviour in issue #3. */
export class CreatePixKeyCommand {
  @IsUUID()
  partner_id!: string;

  @IsCpf()
  document!: string;

  @IsUUID()
  idempotency_key!: string;
}

export interface PixKeyStatusResult {
  status: string;
}
