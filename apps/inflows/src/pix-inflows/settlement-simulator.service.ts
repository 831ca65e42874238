import { Injectable } from '@nestjs/common';
import { PeriodicJobService } from '@partner/kafka';
import { InflowsConfig } from '../config/inflows.config';
import { AdvancePixInflowsUseCase } from './advance-pix-inflows.use-case';

/** Drives the simulated settlement on a timer. */
@Injectable()
export class SettlementSimulatorService extends PeriodicJobService {
  constructor(config: InflowsConfig, advance: AdvancePixInflowsUseCase) {
    super({ name: 'settlement-simulator', intervalMs: config.PIX_IN_TICK_MS, run: () => advance.execute() });
  }
}
