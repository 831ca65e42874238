import { Global, Module } from '@nestjs/common';
import { AdminKeyGuard } from './admin-key.guard';
import { OperatorKeyRepository } from './operator-key.repository';
import { OperatorKeysBootstrap } from './operator-keys.bootstrap';

/** Operator keys: the X-Admin-Key guard of /admin/v1 (and /sandbox/v1/partners), and the start-up check. */
@Global()
@Module({ providers: [OperatorKeyRepository, AdminKeyGuard, OperatorKeysBootstrap], exports: [OperatorKeyRepository, AdminKeyGuard] })
export class OperatorsModule {}
