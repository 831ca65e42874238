import { Module } from '@nestjs/common';
import { ApiKeysModule } from '../api-keys/api-keys.module';
import { PartnersModule } from '../partners/partners.module';
import { UsersModule } from '../users/users.module';
import { SandboxController } from './sandbox.controller';
import { CreateSandboxPartnerUseCase } from './create-sandbox-partner.use-case';
import { UpsertSandboxUserUseCase } from './upsert-sandbox-user.use-case';

/** Test helpers (SANDBOX=true only), thin wrappers over the operator API's use cases. */
@Module({
  imports: [PartnersModule, ApiKeysModule, UsersModule],
  controllers: [SandboxController],
  providers: [CreateSandboxPartnerUseCase, UpsertSandboxUserUseCase],
})
export class SandboxModule {}
