import { DynamicModule, Module } from '@nestjs/common';
import { outboxModule, UnitOfWork } from '@partner/kafka';
import { GatewayConfig } from '../config/gateway.config';
import { DB_SCHEMA, PrismaService } from './prisma.service';

/** The gateway's outbox (API key revocations), as in every service: the unit of work and its relay. */
export const OutboxModule = outboxModule(PrismaService, GatewayConfig, DB_SCHEMA);

@Module({})
class UnpublishedOutboxModule {}

/**
 * Without Kafka (the bench's in-process baseline: one gateway, no broker client) there is nothing to
 * publish to and no other instance to tell: the events stay in the outbox, the transactions are the same.
 */
export const unpublishedOutboxModule = (): DynamicModule => ({
  module: UnpublishedOutboxModule,
  global: true,
  providers: [{ provide: UnitOfWork, inject: [PrismaService], useFactory: (db: PrismaService) => new UnitOfWork(db.pool, { wake: () => undefined }) }],
  exports: [UnitOfWork],
});
