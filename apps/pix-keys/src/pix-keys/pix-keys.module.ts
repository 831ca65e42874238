import { Module } from '@nestjs/common';
import { PixKeysHandler } from './pix-keys.handler';

@Module({ controllers: [PixKeysHandler] })
export class PixKeysModule {}
