import { Transform } from 'class-transformer';
import { IsInt, Matches, Max, Min } from 'class-validator';
import { ServiceConfig } from '@partner/config';

export class PixKeysConfig extends ServiceConfig {
  override HEALTH_PORT: number = 3103;

  /** Simulated DICT: how long a registration (`pending`) or a deletion (`deleting`) takes to be answered. */
  @IsInt() @Min(0) @Max(3_600_000)
  PIX_DICT_DELAY_MS: number = 1_000;

  /** How often the simulated DICT looks for keys to move. */
  @IsInt() @Min(10) @Max(60_000)
  PIX_DICT_TICK_MS: number = 250;

  /** CPFs whose registration the simulated DICT refuses (comma-separated), to exercise the failure path. */
  @Transform(({ value }) => (typeof value === 'string' ? value.split(',').map((s) => s.trim()).filter(Boolean) : value))
  @Matches(/^\d{11}$/, { each: true, message: 'PIX_DICT_FAIL_DOCUMENTS must be CPFs of 11 digits, comma-separated' })
  PIX_DICT_FAIL_DOCUMENTS: string[] = ['00000000191'];
}
