import { Injectable } from '@nestjs/common';
import { PeriodicJobService } from '@partner/kafka';
import { PixKeysConfig } from '../config/pix-keys.config';
import { AdvancePixKeysUseCase } from './advance-pix-keys.use-case';

/** Drives the simulated DICT on a timer. */
@Injectable()
export class DictSimulatorService extends PeriodicJobService {
  constructor(config: PixKeysConfig, advance: AdvancePixKeysUseCase) {
    super({ name: 'dict-simulator', intervalMs: config.PIX_DICT_TICK_MS, run: () => advance.execute() });
  }
}
