import { Injectable } from '@nestjs/common';
import { PeriodicJobService } from '@partner/runtime';
import { PixKeysConfig } from '../config/pix-keys.config';
import { ProcessDictQueueUseCase } from './process-dict-queue.use-case';
import { ReconcileDictUseCase } from './reconcile-dict.use-case';

/** Sends the due registrations and deletions to DICT, every DICT_POLL_MS. */
@Injectable()
export class DictQueueService extends PeriodicJobService {
  constructor(config: PixKeysConfig, queue: ProcessDictQueueUseCase) {
    super({ name: 'dict-queue', intervalMs: config.DICT_POLL_MS, run: () => queue.execute() });
  }
}

/** Reads registered entries back from DICT, every DICT_RECONCILE_INTERVAL_MS. */
@Injectable()
export class DictReconciliationService extends PeriodicJobService {
  constructor(config: PixKeysConfig, reconcile: ReconcileDictUseCase) {
    super({ name: 'dict-reconciliation', intervalMs: config.DICT_RECONCILE_INTERVAL_MS, run: () => reconcile.execute() });
  }
}
