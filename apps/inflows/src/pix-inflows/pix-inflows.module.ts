import { Module } from '@nestjs/common';
import { PixInflowsHandler } from './pix-inflows.handler';

@Module({ controllers: [PixInflowsHandler] })
export class PixInflowsModule {}
