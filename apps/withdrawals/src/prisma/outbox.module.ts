import { Global, Module } from '@nestjs/common';
import { OutboxRelay, outboxRelayProvider } from '@partner/kafka';
import { WithdrawalsConfig } from '../config/withdrawals.config';
import { DB_SCHEMA, PrismaService } from './prisma.service';

@Global()
@Module({
  providers: [
    outboxRelayProvider(PrismaService, WithdrawalsConfig, DB_SCHEMA),
  ],
  exports: [OutboxRelay],
})
export class OutboxModule {}
