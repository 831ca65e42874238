import { Global, Module } from '@nestjs/common';
import { OutboxRelay, outboxRelayProvider } from '@partner/kafka';
import { InflowsConfig } from '../config/inflows.config';
import { OutboxRepository } from './outbox.repository';
import { DB_SCHEMA, PrismaService } from './prisma.service';

/** One outbox for the whole service: the simulated network's announcements and the pix_in events. */
@Global()
@Module({
  providers: [
    OutboxRepository,
    outboxRelayProvider(PrismaService, InflowsConfig, DB_SCHEMA),
  ],
  exports: [OutboxRelay, OutboxRepository],
})
export class OutboxModule {}
