import { Transform } from 'class-transformer';
import { IsInt, IsString, Max, Min } from 'class-validator';
import { ServiceConfig } from '@partner/config';

export class WithdrawalsConfig extends ServiceConfig {
  override HEALTH_PORT: number = 3101;

  /** Simulated chain: how long a withdrawal stays `created` before it is broadcast (`sent`). */
  @IsInt() @Min(0) @Max(3_600_000)
  CHAIN_SEND_DELAY_MS: number = 2_000;

  /** Simulated chain: how long a `sent` withdrawal waits for its confirmation (`settled` or `failed`). */
  @IsInt() @Min(0) @Max(3_600_000)
  CHAIN_SETTLE_DELAY_MS: number = 5_000;

  /** How often the simulated chain looks for withdrawals to move. */
  @IsInt() @Min(10) @Max(60_000)
  CHAIN_TICK_MS: number = 250;

  /** Destinations whose transfers fail on the simulated chain (comma-separated), to exercise the failure path. */
  @Transform(({ value }) => (typeof value === 'string' ? value.split(',').map((s) => s.trim().toLowerCase()).filter(Boolean) : value))
  @IsString({ each: true })
  CHAIN_FAIL_ADDRESSES: string[] = ['0x000000000000000000000000000000000000dead'];
}
