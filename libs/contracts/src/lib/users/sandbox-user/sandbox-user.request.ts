import { ApiProperty } from '../../api-documentation';
import { IsInt, Max, Min } from 'class-validator';
import { IsCpf } from '@partner/validation';
import { MAX_CREDIT_MICROS } from '../../withdrawals/credit-account/credit-account.command';

/** Body of POST /sandbox/v1/users: create the user with this USDT balance, or credit an existing one. */
export class SandboxUserRequest {
  @ApiProperty({ description: "User's CPF, 11 digits", example: '52998224725' })
  @IsCpf()
  document!: string;

  @ApiProperty({ type: 'integer', format: 'int64', description: 'USDT micros to credit (0 reads the balance)', minimum: 0 })
  @IsInt({ message: 'usdt_micros must be an integer number of micros' })
  @Min(0, { message: 'usdt_micros must not be negative' })
  @Max(MAX_CREDIT_MICROS, { message: `usdt_micros must be at most ${MAX_CREDIT_MICROS}` })
  usdt_micros!: number;
}

/** The HTTP answer of POST /sandbox/v1/users: the user's CPF and available balance after the credit. */
export class SandboxUserResponse {
  @ApiProperty({ example: '52998224725' })
  document!: string;

  @ApiProperty({ type: 'integer', description: 'Available balance in USDT micros', example: 10_000_000 })
  usdt_micros!: number;
}
