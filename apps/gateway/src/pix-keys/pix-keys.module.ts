import { Module } from '@nestjs/common';
import { PixKeysController } from './pix-keys.controller';
import { ForwardingBus } from '../http/forwarding-bus';

/** POST /partner/v1/pix-key and DELETE /partner/v1/pix-key/{document} (docs/api.md: "Pix keys"); GET /partner/v1/pix-key/{document}. */
@Module({ controllers: [PixKeysController], providers: [ForwardingBus] })
export class PixKeysModule {}
