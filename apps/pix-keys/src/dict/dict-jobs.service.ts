import { Injectable } from '@nestjs/common';
import { PeriodicJobService } from '@partner/runtime';
import { PixKeysConfig } from '../config/pix-keys.config';
import { ProcessDictClaimsUseCase } from '../claims/process-dict-claims.use-case';
import { ProcessDictMedUseCase } from '../med/process-dict-med.use-case';
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

/** Lists DICT's claims (on its turn), sets the defaults due and sends what claims owe DICT, every DICT_CLAIMS_POLL_MS. */
@Injectable()
export class DictClaimsService extends PeriodicJobService {
  constructor(config: PixKeysConfig, claims: ProcessDictClaimsUseCase) {
    super({ name: 'dict-claims', intervalMs: config.DICT_CLAIMS_POLL_MS, run: () => claims.execute() });
  }
}

/** Lists DICT's MED cases against received payments (on its turn) and sends what they owe DICT, every DICT_MED_POLL_MS. */
@Injectable()
export class DictMedService extends PeriodicJobService {
  constructor(config: PixKeysConfig, med: ProcessDictMedUseCase) {
    super({ name: 'dict-med', intervalMs: config.DICT_MED_POLL_MS, run: () => med.execute() });
  }
}
