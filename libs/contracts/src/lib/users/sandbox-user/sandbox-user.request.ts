import { ApiProperty, ApiPropertyOptional } from '../../api-documentation';
import { IsInt, IsOptional, IsString, Length, Matches, Max, Min } from 'class-validator';
import { IsCpf } from '@partner/validation';
import { MAX_CREDIT_MICROS } from '../../withdrawals/credit-account/credit-account.command';
import { AccountView } from '../../inflows/accounts/brl-account.query';
import { HOLDER_NAME, HOLDER_NAME_MESSAGE } from '../upsert-user/upsert-user.command';

/** Body of POST /sandbox/v1/users: create the user with this USDT balance, or credit an existing one; `name` sets the holder's name. */
export class SandboxUserRequest {
  @ApiProperty({ description: "User's CPF, 11 digits", example: '52998224725' })
  @IsCpf()
  document!: string;

  @ApiProperty({ type: 'integer', format: 'int64', description: 'USDT micros to credit (0 reads the balance)', minimum: 0 })
  @IsInt({ message: 'usdt_micros must be an integer number of micros' })
  @Min(0, { message: 'usdt_micros must not be negative' })
  @Max(MAX_CREDIT_MICROS, { message: `usdt_micros must be at most ${MAX_CREDIT_MICROS}` })
  usdt_micros!: number;

  @ApiPropertyOptional({
    minLength: 1,
    maxLength: 120,
    description: "The holder's name (DICT records it with the user's Pix keys); left out, an existing user keeps theirs",
    example: 'Maria Souza',
  })
  @IsOptional()
  @IsString({ message: HOLDER_NAME_MESSAGE })
  @Matches(HOLDER_NAME, { message: HOLDER_NAME_MESSAGE })
  @Length(1, 120, { message: HOLDER_NAME_MESSAGE })
  name?: string;
}

/** The HTTP answer of POST /sandbox/v1/users: the user's CPF, available USDT balance after the credit, and payment account. */
export class SandboxUserResponse {
  @ApiProperty({ example: '52998224725' })
  document!: string;

  @ApiProperty({ type: 'integer', description: 'Available balance in USDT micros', example: 10_000_000 })
  usdt_micros!: number;

  @ApiProperty({ type: () => AccountView, description: "The user's payment account at the operator: where Pix to the user are paid" })
  account!: AccountView;
}
