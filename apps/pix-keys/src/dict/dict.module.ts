import { Module } from '@nestjs/common';
import { PixKeyClaimRepository } from '../claims/pix-key-claim.repository';
import { ProcessDictClaimsUseCase } from '../claims/process-dict-claims.use-case';
import { PixKeysConfig } from '../config/pix-keys.config';
import { MedCaseRepository } from '../med/med-case.repository';
import { ProcessDictMedUseCase } from '../med/process-dict-med.use-case';
import { PixKeyRepository } from '../pix-keys/pix-key.repository';
import { BacenDictDirectory } from './bacen-dict-directory';
import { DICT_CREDENTIALS, DictCredentials, loadDictCredentials } from './dict-credentials';
import { DICT_DIRECTORY } from './dict-directory';
import { DictClaimsService, DictMedService, DictQueueService, DictReconciliationService } from './dict-jobs.service';
import { DictMetrics } from './dict-metrics';
import { ProcessDictQueueUseCase } from './process-dict-queue.use-case';
import { ReconcileDictUseCase } from './reconcile-dict.use-case';

/**
 * DICT: the production adapter (BacenDictDirectory) behind the DictDirectory port, the queue that sends
 * registrations and deletions, the reconciliation, the claims worker (claims of the partners' keys) and the MED worker
 * (cases against received payments: med/). The credentials are read and checked when the module is built, so a
 * wrong certificate or key stops the service at start-up.
 */
@Module({
  providers: [
    PixKeyRepository,
    DictMetrics,
    { provide: DICT_CREDENTIALS, useFactory: (config: PixKeysConfig) => loadDictCredentials(config), inject: [PixKeysConfig] },
    {
      provide: DICT_DIRECTORY,
      useFactory: (config: PixKeysConfig, credentials: DictCredentials, metrics: DictMetrics) =>
        new BacenDictDirectory(config, credentials, metrics),
      inject: [PixKeysConfig, DICT_CREDENTIALS, DictMetrics],
    },
    PixKeyClaimRepository,
    ProcessDictQueueUseCase,
    ReconcileDictUseCase,
    ProcessDictClaimsUseCase,
    MedCaseRepository,
    ProcessDictMedUseCase,
    DictQueueService,
    DictReconciliationService,
    DictClaimsService,
    DictMedService,
  ],
})
export class DictModule {}
