import { ApiProperty } from '../../api-documentation';
import { IsInt, IsOptional, IsString, IsUUID, Length, Matches, Max, Min } from 'class-validator';
import { IsCpf } from '@partner/validation';
import { PartnerId } from '../../tenancy/partner-id';

/** Largest credit at once (1,000,000,000 USDT); keeps every balance a safe integer. */
export const MAX_CREDIT_MICROS = 1_000_000_000_000_000;

/** A credit's idempotency key: 1-128 letters, digits and `.` `_` `:` `-` (a UUID, a deposit's id or tx hash...). */
export const CREDIT_IDEMPOTENCY_KEY = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Body of POST /admin/v1/partners/{partner_id}/users/{document}/credits: money that arrived for the user
 * (a deposit, a correction). The same idempotency key again is the same credit: answered, never applied twice.
 */
export class CreditRequest {
  @ApiProperty({
    type: 'integer',
    description: 'USDT micros to add to the available balance',
    minimum: 1,
    maximum: MAX_CREDIT_MICROS,
    example: 10_000_000,
  })
  @IsInt({ message: 'usdt_micros must be an integer number of micros' })
  @Min(1, { message: 'usdt_micros must be at least 1' })
  @Max(MAX_CREDIT_MICROS, { message: `usdt_micros must be at most ${MAX_CREDIT_MICROS}` })
  usdt_micros!: number;

  @ApiProperty({
    description: 'Unique per partner: a retry with the same key and body is answered 200 and credits nothing',
    pattern: CREDIT_IDEMPOTENCY_KEY.source,
    example: 'deposit-7f3a9c',
  })
  @IsString()
  @Matches(CREDIT_IDEMPOTENCY_KEY, { message: 'idempotency_key must be 1-128 letters, digits, ".", "_", ":" or "-"' })
  idempotency_key!: string;

  @ApiProperty({
    description: 'Where the money came from (a deposit id, a ticket): kept in the ledger',
    minLength: 1,
    maxLength: 200,
    example: 'TED 2026-11-22 #4411',
  })
  @IsString()
  @Length(1, 200, { message: 'reference must be 1-200 characters' })
  reference!: string;
}

/** withdrawals.command.credit-account.v2: the operator API's credit, also for an upstream deposit system. */
export class CreditAccountCommand extends CreditRequest {
  @IsUUID()
  partner_id!: PartnerId;

  @IsCpf()
  document!: string;

  /** Who credited, kept on the ledger line: the operator key that asked, and the one that approved (dual control). */
  @IsOptional()
  @IsString()
  @Length(1, 500)
  operators?: string;

  /** The address of the operator's client (for an approved credit, the approver's), kept on the credit's audit row. */
  @IsOptional()
  @IsString()
  @Length(1, 64)
  client_address?: string;
}

/** A user's USDT balance: available to withdraw, and held by withdrawals not final yet. */
export class AccountBalance {
  @ApiProperty({ type: 'integer', description: 'USDT micros the user can withdraw', example: 10_000_000 })
  available_usdt_micros!: number;

  @ApiProperty({ type: 'integer', description: 'USDT micros held by withdrawals not yet settled or failed', example: 0 })
  held_usdt_micros!: number;
}

/** The reply of a credit: the balance after it, and whether this was a replay of an earlier credit with the key. */
export interface CreditAccountResult {
  available_usdt_micros: number;
  held_usdt_micros: number;
  replayed: boolean;
}
