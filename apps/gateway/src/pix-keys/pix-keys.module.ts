import { Module } from '@nestjs/common';

/** POST /partner/v1/pix-key and DELETE /partner/v1/pix-key/{document} (spec 4.3, 4.4). */
@Module({ controllers: [], providers: [] })
export class PixKeysModule {}
