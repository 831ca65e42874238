import { Global, Module } from '@nestjs/common';
import { OutboxRelay, outboxRelayProvider } from '@partner/kafka';
import { CustomersConfig } from '../config/customers.config';
import { DB_SCHEMA, PrismaService } from './prisma.service';
import { OutboxRepository } from './outbox.repository';

@Global()
@Module({
  providers: [
    OutboxRepository,
    outboxRelayProvider(PrismaService, CustomersConfig, DB_SCHEMA),
  ],
  exports: [OutboxRelay, OutboxRepository],
})
export class OutboxModule {}
