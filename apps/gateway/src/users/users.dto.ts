import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { AccountView, codesOf, HOLDER_NAME, HOLDER_NAME_MESSAGE } from '@partner/contracts';
import { IsCpf } from '@partner/validation';
import { IsOptional, IsString, Length, Matches } from 'class-validator';
import { PartnerParams } from '../partners/partners.dto';

const operatorCode = codesOf('operator');
const CPF = { description: "The user's CPF, 11 digits", example: '52998224725' };

/** Body of POST /admin/v1/partners/{partner_id}/users. */
export class AdminUserRequest {
  @ApiProperty(CPF)
  @IsCpf(operatorCode('invalid_document'))
  document!: string;

  @ApiPropertyOptional({
    minLength: 1,
    maxLength: 120,
    description:
      "The holder's name, as DICT records it with the user's Pix keys: 1-120 characters, not blank, no control or format characters. Optional: a user registered without one gets it by registering again with it (a later name replaces it; leaving it out keeps it). A Pix key needs it.",
    example: 'Maria Souza',
  })
  @IsOptional()
  @IsString({ message: HOLDER_NAME_MESSAGE })
  @Matches(HOLDER_NAME, { message: HOLDER_NAME_MESSAGE })
  @Length(1, 120, { message: HOLDER_NAME_MESSAGE })
  name?: string;
}

/** A user as the operator API answers it. */
export class AdminUserView {
  @ApiProperty(CPF)
  document!: string;

  @ApiProperty({ type: 'integer', description: 'Unix seconds: when the user was first registered', example: 1795315285 })
  created_at!: number;

  @ApiProperty({
    type: () => AccountView,
    description: "The user's payment account at the operator, opened at the first registration: where Pix to the user are paid",
  })
  account!: AccountView;
}

/** The path of /admin/v1/partners/{partner_id}/users/{document}/... */
export class UserParams extends PartnerParams {
  @ApiProperty(CPF)
  @IsCpf(operatorCode('invalid_document'))
  document!: string;
}
