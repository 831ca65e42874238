import { Module } from '@nestjs/common';
import { ApiKeysController } from './api-keys.controller';
import { CreateApiKeyUseCase } from './create-api-key.use-case';
import { ListApiKeysUseCase } from './list-api-keys.use-case';
import { RevokeApiKeyUseCase } from './revoke-api-key.use-case';

/**
 * Operator API: partners' API keys (the repository and the guard are AuthModule's; the listener of other
 * instances' revocations is provided by AppModule, where the gateway runs with Kafka).
 */
@Module({
  controllers: [ApiKeysController],
  providers: [CreateApiKeyUseCase, ListApiKeysUseCase, RevokeApiKeyUseCase],
  exports: [CreateApiKeyUseCase],
})
export class ApiKeysModule {}
