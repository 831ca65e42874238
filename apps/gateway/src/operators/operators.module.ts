import { Global, Module } from '@nestjs/common';
import { AdminKeyGuard } from './admin-key.guard';
import { OperatorKeyCache } from './operator-key-cache';
import { OperatorKeyRepository } from './operator-key.repository';
import { OperatorKeysBootstrap } from './operator-keys.bootstrap';

/** Operator keys: the X-Admin-Key guard of /admin/v1 (and /sandbox/v1/partners), and the start-up check. */
@Global()
@Module({
  providers: [OperatorKeyRepository, OperatorKeyCache, AdminKeyGuard, OperatorKeysBootstrap],
  exports: [OperatorKeyRepository, OperatorKeyCache, AdminKeyGuard],
})
export class OperatorsModule {}
