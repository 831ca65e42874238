import { Global, Module } from '@nestjs/common';
import { OutboxRelay, outboxRelayProvider } from '@partner/kafka';
import { PixKeysConfig } from '../config/pix-keys.config';
import { OutboxRepository } from './outbox.repository';
import { DB_SCHEMA, PrismaService } from './prisma.service';

@Global()
@Module({
  providers: [
    OutboxRepository,
    outboxRelayProvider(PrismaService, PixKeysConfig, DB_SCHEMA),
  ],
  exports: [OutboxRelay, OutboxRepository],
})
export class OutboxModule {}
