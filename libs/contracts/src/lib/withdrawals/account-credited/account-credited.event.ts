import { IsInt, IsISO8601, IsString, IsUUID, Length, Matches, Max, Min } from 'class-validator';
import { IsCpf } from '@partner/validation';
import { CREDIT_IDEMPOTENCY_KEY, MAX_CREDIT_MICROS } from '../credit-account/credit-account.command';
import { PartnerId } from '../../tenancy/partner-id';

/**
 * withdrawals.event.account-credited.v1: a credit was applied to a user's USDT account (once per
 * idempotency key; a replay emits nothing). Written to the withdrawals outbox in the crediting
 * transaction, keyed by account so one account's credits stay in order. For internal consumers (an
 * upstream ledger); the partner's events feed does not carry it.
 */
export class AccountCreditedEvent {
  @IsUUID()
  partner_id!: PartnerId;

  @IsCpf()
  document!: string;

  @IsInt()
  @Min(1)
  @Max(MAX_CREDIT_MICROS)
  usdt_micros!: number;

  /** With partner_id, identifies the credit: a consumer may deduplicate on the pair. */
  @IsString()
  @Matches(CREDIT_IDEMPOTENCY_KEY)
  idempotency_key!: string;

  @IsString()
  @Length(1, 200)
  reference!: string;

  /** The available balance right after this credit. */
  @IsInt()
  @Min(0)
  available_usdt_micros!: number;

  @IsISO8601()
  credited_at!: string;
}
