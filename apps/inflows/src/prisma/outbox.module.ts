import { Global, Module } from '@nestjs/common';
import { MessageBus, OutboxRelay } from '@partner/kafka';
import { InflowsConfig } from '../config/inflows.config';
import { OutboxRepository } from './outbox.repository';
import { DB_SCHEMA, PrismaService } from './prisma.service';

/** One outbox for the whole service: the simulated network's announcements and the pix_in events. */
@Global()
@Module({
  providers: [
    OutboxRepository,
    {
      provide: OutboxRelay,
      inject: [PrismaService, MessageBus, InflowsConfig],
      useFactory: (prisma: PrismaService, bus: MessageBus, config: InflowsConfig) =>
        new OutboxRelay(prisma, bus, { schema: DB_SCHEMA, pollMs: config.OUTBOX_POLL_MS }),
    },
  ],
  exports: [OutboxRelay, OutboxRepository],
})
export class OutboxModule {}
