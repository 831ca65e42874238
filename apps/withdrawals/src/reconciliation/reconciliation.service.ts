import { Injectable } from '@nestjs/common';
import { PeriodicJobService } from '@partner/runtime';
import { WithdrawalsConfig } from '../config/withdrawals.config';
import { ReconcileUseCase } from './reconcile.use-case';

/** Runs the reconciliation every RECONCILE_INTERVAL_MS (`npm run cli -- reconcile` runs it at once). */
@Injectable()
export class ReconciliationService extends PeriodicJobService {
  constructor(config: WithdrawalsConfig, reconcile: ReconcileUseCase) {
    super({ name: 'reconciliation', intervalMs: config.RECONCILE_INTERVAL_MS, run: () => reconcile.execute() });
  }
}
