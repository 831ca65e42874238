import { Global, Module } from '@nestjs/common';
import { MessageBus, OutboxRelay } from '@partner/kafka';
import { PixKeysConfig } from '../config/pix-keys.config';
import { OutboxRepository } from './outbox.repository';
import { DB_SCHEMA, PrismaService } from './prisma.service';

@Global()
@Module({
  providers: [
    OutboxRepository,
    {
      provide: OutboxRelay,
      inject: [PrismaService, MessageBus, PixKeysConfig],
      useFactory: (prisma: PrismaService, bus: MessageBus, config: PixKeysConfig) =>
        new OutboxRelay(prisma, bus, { schema: DB_SCHEMA, pollMs: config.OUTBOX_POLL_MS }),
    },
  ],
  exports: [OutboxRelay, OutboxRepository],
})
export class OutboxModule {}
