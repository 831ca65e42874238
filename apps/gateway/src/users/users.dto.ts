import { ApiProperty } from '@nestjs/swagger';
import { codesOf } from '@partner/contracts';
import { IsCpf } from '@partner/validation';
import { PartnerParams } from '../partners/partners.dto';

const operatorCode = codesOf('operator');
const CPF = { description: "The user's CPF, 11 digits", example: '52998224725' };

/** Body of POST /admin/v1/partners/{partner_id}/users. */
export class AdminUserRequest {
  @ApiProperty(CPF)
  @IsCpf(operatorCode('invalid_document'))
  document!: string;
}

/** A user as the operator API answers it. */
export class AdminUserView {
  @ApiProperty(CPF)
  document!: string;

  @ApiProperty({ type: 'integer', description: 'Unix seconds: when the user was first registered', example: 1795315285 })
  created_at!: number;
}

/** The path of /admin/v1/partners/{partner_id}/users/{document}/... */
export class UserParams extends PartnerParams {
  @ApiProperty(CPF)
  @IsCpf(operatorCode('invalid_document'))
  document!: string;
}
