import { Global, Module } from '@nestjs/common';
import { MessageBus, OutboxRelay } from '@partner/kafka';
import { CustomersConfig } from '../config/customers.config';
import { DB_SCHEMA, PrismaService } from './prisma.service';
import { OutboxRepository } from './outbox.repository';

@Global()
@Module({
  providers: [
    OutboxRepository,
    {
      provide: OutboxRelay,
      inject: [PrismaService, MessageBus, CustomersConfig],
      useFactory: (prisma: PrismaService, bus: MessageBus, config: CustomersConfig) =>
        new OutboxRelay(prisma, bus, { schema: DB_SCHEMA, pollMs: config.OUTBOX_POLL_MS }),
    },
  ],
  exports: [OutboxRelay, OutboxRepository],
})
export class OutboxModule {}
