import { ApiProperty } from '@nestjs/swagger';
import { IsUUID } from 'class-validator';
import { PartnerParams } from '../partners/partners.dto';

/** The path of /admin/v1/partners/{partner_id}/api-keys/{key_id}. */
export class ApiKeyParams extends PartnerParams {
  @ApiProperty({ format: 'uuid' })
  @IsUUID('all', { message: 'key_id must be a UUID' })
  key_id!: string;
}

/** A new API key: the key itself is shown this once (only its SHA-256 is stored). */
export class AdminNewApiKey {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty({
    description: 'The X-API-Key of the partner: pk_live_ (pk_sandbox_ in the sandbox) and 43 characters. Shown once',
    example: 'pk_live_Jr3BV9Z3Yp0x1Q2lUQm5u8b8wI1o7lZ0qYxv6w8d4Zk',
  })
  api_key!: string;

  @ApiProperty({ description: 'Its first 16 characters, which name it in listings', example: 'pk_live_Jr3BV9Z3' })
  prefix!: string;

  @ApiProperty({ type: 'integer', description: 'Unix seconds', example: 1795315285 })
  created_at!: number;
}

/** An API key as listings show it: never the key or its hash. */
export class AdminApiKeyView {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty({ description: 'Its first 16 characters', example: 'pk_live_Jr3BV9Z3' })
  prefix!: string;

  @ApiProperty({ type: 'integer', description: 'Unix seconds', example: 1795315285 })
  created_at!: number;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description:
      'Unix seconds of a recent use; null if never used. Coarse on purpose (no write per request): a gateway instance records a use only when the key is not in its key cache, so this may lag the last use by up to API_KEY_CACHE_MS (30 s by default)',
    example: 1795315300,
  })
  last_used_at!: number | null;

  @ApiProperty({ type: 'integer', nullable: true, description: 'Unix seconds of its revocation; null while active', example: null })
  revoked_at!: number | null;
}

/** Answer of GET /admin/v1/partners/{partner_id}/api-keys. */
export class AdminApiKeyList {
  @ApiProperty({ type: [AdminApiKeyView], description: 'Every key of the partner, revoked ones included, oldest first' })
  api_keys!: AdminApiKeyView[];
}
