import { Module } from '@nestjs/common';
import { PixKeysController } from './pix-keys.controller';
import { CreatePixKeyUseCase, DeletePixKeyUseCase, GetPixKeyUseCase } from './pix-keys.use-cases';

/** POST /partner/v1/pix-key and DELETE /partner/v1/pix-key/{document} (docs/api.md: "Pix keys"); GET /partner/v1/pix-key/{document}. */
@Module({ controllers: [PixKeysController], providers: [CreatePixKeyUseCase, DeletePixKeyUseCase, GetPixKeyUseCase] })
export class PixKeysModule {}
