import { Injectable } from '@nestjs/common';
import { PeriodicJobService } from '@partner/runtime';
import { InflowsConfig } from '../config/inflows.config';
import { SettleSandboxPixUseCase } from './settle-sandbox-pix.use-case';

/** Drives the simulated settlement on a timer. */
@Injectable()
export class SettlementSimulatorService extends PeriodicJobService {
  constructor(config: InflowsConfig, settle: SettleSandboxPixUseCase) {
    super({ name: 'settlement-simulator', intervalMs: config.PIX_IN_TICK_MS, run: () => settle.execute() });
  }
}
