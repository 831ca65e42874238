import { Module } from '@nestjs/common';
import { PixKeysController } from './pix-keys.controller';
import { ForwardingBus } from '../http/forwarding-bus';

/** POST /partner/v1/pix-key and DELETE /partner/v1/pix-key/{document} (spec 4.3, 4.4); GET /partner/v1/pix-key/{document}. */
@Module({ controllers: [PixKeysController], providers: [ForwardingBus] })
export class PixKeysModule {}
