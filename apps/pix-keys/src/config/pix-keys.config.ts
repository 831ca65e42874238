import { Matches } from 'class-validator';
import { CommaSeparated, PollIntervalMs, ServiceConfig, SimulatedDelayMs } from '@partner/config';
import { SERVICE_CATALOGUE } from '@partner/contracts';

export class PixKeysConfig extends ServiceConfig {
  override HEALTH_PORT: number = SERVICE_CATALOGUE['pix-keys'].healthPort;

  /** Simulated DICT: how long a registration (`pending`) or a deletion (`deleting`) takes to be answered. */
  @SimulatedDelayMs()
  PIX_DICT_DELAY_MS: number = 1_000;

  /** How often the simulated DICT looks for keys to move. */
  @PollIntervalMs()
  PIX_DICT_TICK_MS: number = 250;

  /** CPFs whose registration the simulated DICT refuses (comma-separated), to exercise the failure path. */
  @CommaSeparated()
  @Matches(/^\d{11}$/, { each: true, message: 'PIX_DICT_FAIL_DOCUMENTS must be CPFs of 11 digits, comma-separated' })
  PIX_DICT_FAIL_DOCUMENTS: string[] = ['00000000191'];
}
