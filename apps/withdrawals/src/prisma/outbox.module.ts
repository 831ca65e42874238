import { Global, Module } from '@nestjs/common';
import { MessageBus, OutboxRelay } from '@partner/kafka';
import { WithdrawalsConfig } from '../config/withdrawals.config';
import { DB_SCHEMA, PrismaService } from './prisma.service';

@Global()
@Module({
  providers: [
    {
      provide: OutboxRelay,
      inject: [PrismaService, MessageBus, WithdrawalsConfig],
      useFactory: (prisma: PrismaService, bus: MessageBus, config: WithdrawalsConfig) =>
        new OutboxRelay(prisma, bus, { schema: DB_SCHEMA, pollMs: config.OUTBOX_POLL_MS }),
    },
  ],
  exports: [OutboxRelay],
})
export class OutboxModule {}
