import { ApiProperty, ApiPropertyOptional } from '../../api-documentation';
import { IsIn, IsOptional, IsUUID } from 'class-validator';
import { IsCpf, IsDateTime } from '@partner/validation';
import { NEXT_CURSOR_PROPERTY, PagedListRequest } from '../../paging/list-page';
import { PartnerId } from '../../tenancy/partner-id';
import { UsdtWithdrawalView } from '../get-withdrawal/get-withdrawal.query';
import { WITHDRAWAL_STATES, WithdrawalState } from '../withdrawal.types';

/** Query string of GET /partner/v1/withdrawals/usdt (docs/api.md: "Lists"). */
export class ListWithdrawalsRequest extends PagedListRequest {
  @ApiPropertyOptional({ description: "Only this user's withdrawals: a CPF, 11 digits", example: '52998224725' })
  @IsOptional()
  @IsCpf()
  document?: string;

  @ApiPropertyOptional({ enum: WITHDRAWAL_STATES, description: 'Only withdrawals in this state now' })
  @IsOptional()
  @IsIn(WITHDRAWAL_STATES, { message: `state must be one of ${WITHDRAWAL_STATES.join(', ')}` })
  state?: WithdrawalState;

  @ApiPropertyOptional({
    format: 'date-time',
    description: 'Only withdrawals created at or after this instant (inclusive): ISO 8601 with its offset',
    example: '2026-11-01T00:00:00-03:00',
  })
  @IsOptional()
  @IsDateTime()
  created_from?: string;

  @ApiPropertyOptional({
    format: 'date-time',
    description: 'Only withdrawals created before this instant (exclusive): ISO 8601 with its offset',
    example: '2026-12-01T00:00:00-03:00',
  })
  @IsOptional()
  @IsDateTime()
  created_to?: string;
}

export class ListWithdrawalsQuery extends ListWithdrawalsRequest {
  @IsUUID()
  partner_id!: PartnerId;
}

export class ListWithdrawalsResult {
  @ApiProperty({
    type: () => [UsdtWithdrawalView],
    description: 'Newest first (by creation time, then id), each as GET /partner/v1/withdrawals/usdt/{id} answers it',
  })
  withdrawals!: UsdtWithdrawalView[];

  @ApiProperty(NEXT_CURSOR_PROPERTY)
  next_cursor!: string | null;
}
