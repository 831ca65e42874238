import { Module } from '@nestjs/common';
import { refusalRetentionProvider } from '@partner/db';
import { CreatePixKeyUseCase } from './create-pix-key.use-case';
import { DeletePixKeyUseCase } from './delete-pix-key.use-case';
import { GetPixKeyUseCase } from './get-pix-key.use-case';
import { ListPixKeysUseCase } from './list-pix-keys.use-case';
import { IdempotencyRecordRepository } from './idempotency-record.repository';
import { IdempotentCommandService } from './idempotent-command.service';
import { PixKeyRepository } from './pix-key.repository';
import { PixKeysHandler } from './pix-keys.handler';

@Module({
  controllers: [PixKeysHandler],
  providers: [
    PixKeyRepository,
    IdempotencyRecordRepository,
    IdempotentCommandService,
    refusalRetentionProvider(),
    CreatePixKeyUseCase,
    DeletePixKeyUseCase,
    GetPixKeyUseCase,
    ListPixKeysUseCase,
  ],
})
export class PixKeysModule {}
