import { IsString } from 'class-validator';
import { CommaSeparated, PollIntervalMs, ServiceConfig, SimulatedDelayMs } from '@partner/config';
import { SERVICE_CATALOGUE } from '@partner/contracts';

export class WithdrawalsConfig extends ServiceConfig {
  override HEALTH_PORT: number = SERVICE_CATALOGUE.withdrawals.healthPort;

  /** Simulated chain: how long a withdrawal stays `created` before it is broadcast (`sent`). */
  @SimulatedDelayMs()
  CHAIN_SEND_DELAY_MS: number = 2_000;

  /** Simulated chain: how long a `sent` withdrawal waits for its confirmation (`settled` or `failed`). */
  @SimulatedDelayMs()
  CHAIN_SETTLE_DELAY_MS: number = 5_000;

  /** How often the simulated chain looks for withdrawals to move. */
  @PollIntervalMs()
  CHAIN_TICK_MS: number = 250;

  /** Destinations whose transfers fail on the simulated chain (comma-separated), to exercise the failure path. */
  @CommaSeparated((address) => address.toLowerCase())
  @IsString({ each: true })
  CHAIN_FAIL_ADDRESSES: string[] = ['0x000000000000000000000000000000000000dead'];
}
