import { Injectable } from '@nestjs/common';
import { PeriodicJobService } from '@partner/kafka';
import { WithdrawalsConfig } from '../config/withdrawals.config';
import { AdvanceWithdrawalsUseCase } from './advance-withdrawals.use-case';

/** Drives the simulated chain on a timer. */
@Injectable()
export class ChainSimulatorService extends PeriodicJobService {
  constructor(config: WithdrawalsConfig, advance: AdvanceWithdrawalsUseCase) {
    super({ name: 'chain-simulator', intervalMs: config.CHAIN_TICK_MS, run: () => advance.execute() });
  }
}
