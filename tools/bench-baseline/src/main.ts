/**
 * The bench's in-process baseline (scripts/bench/withdrawals.bench.ts): the real gateway app and the
 * real withdrawals service in ONE process, the gateway's Kafka request-reply replaced by a direct call
 * of the service's `@HandleRequest` handler. Auth, rate limit, validation, the transaction with its
 * outbox row, error mapping and logging are the real ones; the withdrawals outbox relay and chain
 * simulator of this process run as in the service (the relay still publishes to Kafka, the separate
 * events process still projects). What the bench compares it with is the cost of the Kafka hop.
 *
 * Only the withdrawals topics are served here (create, credit account, ping); every other route
 * answers 503. It joins no consumer group, so it never takes partitions from the real services.
 * Environment: the gateway's (PORT, DATABASE_URL, KAFKA_BROKERS, ADMIN_API_KEY...) and the
 * withdrawals service's (CHAIN_*, OUTBOX_POLL_MS); HEALTH_PORT is not listened on.
 */
import '@partner/platform/preload';
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { MicroserviceOptions } from '@nestjs/microservices';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { Logger } from 'nestjs-pino';
import { loadConfig } from '@partner/config';
import { runMain } from '@partner/platform';
// The bench baseline composes two apps by design (module boundaries otherwise keep apps apart); it is a
// tool (type:tool, scope:bench: tools/README.md) that nothing imports.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { GatewayConfig } from '../../../apps/gateway/src/config/gateway.config';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { createGatewayApp } from '../../../apps/gateway/src/gateway-app';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { AppModule as WithdrawalsAppModule } from '../../../apps/withdrawals/src/app.module';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { WithdrawalsConfig } from '../../../apps/withdrawals/src/config/withdrawals.config';
import { InProcessBus } from './in-process-bus';
import { InProcessServer } from './in-process-server';

runMain(async () => {
  const gatewayConfig = loadConfig(GatewayConfig);
  const withdrawalsConfig = loadConfig(WithdrawalsConfig);

  // The service as bootstrapService builds it, minus its Kafka consumer and its health listener.
  const service = await NestFactory.create<NestFastifyApplication>(WithdrawalsAppModule.register(withdrawalsConfig), new FastifyAdapter(), {
    bufferLogs: true,
  });
  service.useLogger(service.get(Logger));
  const server = new InProcessServer();
  service.connectMicroservice<MicroserviceOptions>({ strategy: server }, { inheritAppConfig: true });
  await service.startAllMicroservices();
  await service.init();

  const gateway = await createGatewayApp(gatewayConfig, { overrideBus: new InProcessBus(server, gatewayConfig.REQUEST_TIMEOUT_MS) });
  // The gateway's own shutdown hooks close it and re-raise the signal; this listener keeps the process
  // alive meanwhile and ends it once the service (relay batch, chain tick) has stopped too.
  let stopping = false;
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      void service.close().finally(() => process.exit(0));
    });
  }
  await gateway.listen({ port: gatewayConfig.PORT, host: gatewayConfig.HOST });
  gateway.get(Logger).log(`bench baseline (gateway + withdrawals in one process) listening on ${await gateway.getUrl()}`);
});
