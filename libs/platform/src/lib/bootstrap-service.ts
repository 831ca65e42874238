import { INestApplication, Logger as NestLogger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { MicroserviceOptions } from '@nestjs/microservices';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { Logger } from 'nestjs-pino';
import { ServiceConfig } from '@partner/config';
import { ServiceName } from '@partner/contracts';
import { Registry } from 'prom-client';
import { Database } from '@partner/db';
import { DirectReplySender, ReplyTargets, serveDirectQueries } from '@partner/internal-http';
import {
  ConsumerGroups,
  DeadLetters,
  DeadLetterStore,
  kafkaConnection,
  KafkaConnection,
  kafkaServerOptions,
  KafkaServer,
  prepareTopics,
} from '@partner/kafka';
import { PeriodicJobMetrics } from '@partner/runtime';
import { METRICS_REGISTRY } from './metrics.module';

/** How a service process starts. */
export interface ServiceStart {
  /**
   * Why this process consumes no topic and answers no query, when it is a worker (the withdrawals service's
   * PAYOUTS_ONLY): it runs its periodic jobs and its outbox relay, with health and metrics, and the group's
   * other instances take its commands. Unset: a full instance.
   */
  worker?: string;
}

/**
 * Starts a Kafka-driven service: its command/event consumers (one consumer group per service), plus a
 * small HTTP server for health probes. Topics are ensured first, since the broker does not create them.
 */
export async function bootstrapService(
  name: ServiceName,
  module: unknown,
  config: ServiceConfig,
  start: ServiceStart = {},
): Promise<INestApplication> {
  const app = await NestFactory.create<NestFastifyApplication>(module as never, new FastifyAdapter(), { bufferLogs: true });
  app.useLogger(app.get(Logger));
  app.enableShutdownHooks();
  const connection = kafkaConnection(config, `${name}-${process.pid}`);
  const created = await prepareTopics(connection, config);
  if (created.length > 0) new NestLogger('Bootstrap').log(`Created ${created.length} topics`);
  if (start.worker === undefined) await startConsumers(app, name, connection, config);
  else app.get(ConsumerGroups).none(start.worker);
  await app.listen({ port: config.HEALTH_PORT, host: process.env.HOST ?? '127.0.0.1' });
  const role = start.worker === undefined ? '' : ` as a worker (${start.worker})`;
  new NestLogger('Bootstrap').log(`${name} ready${role}; health on ${await app.getUrl()}`);
  return app;
}

/** The service's consumers of its topics and its direct queries over HTTP, started. */
async function startConsumers(
  app: NestFastifyApplication,
  name: ServiceName,
  connection: KafkaConnection,
  config: ServiceConfig,
): Promise<void> {
  // Unprocessable events are parked in the service's own dead_letters table, counted on its /metrics (ADR 0015).
  const deadLetters = new DeadLetters(new DeadLetterStore(app.get(Database)));
  deadLetters.registerIn(app.get<Registry>(METRICS_REGISTRY));
  // The consumers report their group membership where the service's /readyz reads it, and count their offset commits in its /metrics.
  const transport = kafkaServerOptions({
    connection,
    groupId: name,
    maxInFlight: config.KAFKA_CONCURRENCY,
    eventFetchWaitMs: config.KAFKA_EVENT_FETCH_WAIT_MS,
    groups: app.get(ConsumerGroups),
    jobMetrics: app.get(PeriodicJobMetrics),
    // Replies go straight to the gateway instance that asked, on a host REPLY_TARGETS allows (docs/adr/0017-internal-trust.md).
    directReplies: new DirectReplySender(new ReplyTargets(config.REPLY_TARGETS)),
    // A consumer out of its group longer than this takes the process down for its supervisor (ADR 0015).
    maxOutOfGroupMs: config.KAFKA_MAX_OUT_OF_GROUP_MS,
    deadLetters,
  });
  app.connectMicroservice<MicroserviceOptions>(transport, { inheritAppConfig: true });
  // The same handlers answer the service's read-only queries over HTTP too (docs/architecture.md: "Direct queries").
  // Only the gateway's signed requests are answered (docs/adr/0017-internal-trust.md).
  serveDirectQueries(app.getHttpAdapter().getInstance(), transport.strategy as KafkaServer, config.INTERNAL_SECRET);
  await app.startAllMicroservices();
}

/** Runs `main` and turns a start-up failure (bad configuration, unreachable broker) into one clear line and exit 1. */
export function runMain(main: () => Promise<unknown>): void {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
