import { DynamicModule, Module } from '@nestjs/common';
import { Database, UnitOfWork } from '@partner/db';
import { eventOrigin, outboxModule } from '@partner/kafka';
import { GatewayConfig } from '../config/gateway.config';
import { DB_SCHEMA } from './db-schema';

/** The gateway's outbox (API key revocations), as in every service: the unit of work and its relay. */
export const OutboxModule = outboxModule(GatewayConfig, DB_SCHEMA);

@Module({})
class UnpublishedOutboxModule {}

/**
 * Without Kafka (the bench's in-process baseline: one gateway, no broker client) there is nothing to
 * publish to and no other instance to tell: the events stay in the outbox, the transactions are the same.
 */
export const unpublishedOutboxModule = (): DynamicModule => ({
  module: UnpublishedOutboxModule,
  global: true,
  providers: [
    { provide: UnitOfWork, inject: [Database], useFactory: (db: Database) => new UnitOfWork(db, { wake: () => undefined }, eventOrigin) },
  ],
  exports: [UnitOfWork],
});
